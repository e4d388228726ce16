"""``bloomparquet probe`` agrees with DuckDB's ``parquet_bloom_probe`` row group by
row group, on files written by pyarrow, DuckDB, Spark (parquet-java) and our
writer, over present and absent values of every type each writer can filter;
and it never excludes a row group that holds the value."""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bloomparquet.tools import probe

from .probe_files import COLUMNS, DUCKDB_CANNOT_PROBE, WRITERS, present, probe_values, write_files, written

__all__ = ["written"]  # a fixture


def test_probe_agrees_with_duckdb(written) -> None:
    writer, files = written
    con = duckdb.connect()
    agreed = excluded_both = 0
    for path in files:
        meta = pq.ParquetFile(path).metadata
        assert meta.num_row_groups >= 2, f"{writer}: want several row groups"
        data = pq.read_table(path)
        starts = list(np.cumsum([0] + [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]))
        filtered = {
            meta.row_group(0).column(c).path_in_schema
            for c in range(meta.num_columns)
            if meta.row_group(0).column(c).bloom_filter_offset is not None
        }
        assert filtered >= set(WRITERS[writer]) - {"i8"} - ({"ts_ns"} if writer == "duckdb" else set()), filtered
        for name in sorted(filtered):
            values = probe_values(name, data)
            report = probe.run([str(path)], name, [t for t, _ in values])
            ours = report["files"][0]["row_groups"]
            holds = present(data, name, starts) if not pa.types.is_timestamp(COLUMNS[name][0]) else None
            for i, (text, param) in enumerate(values):
                got = dict(
                    con.execute(
                        "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?)",
                        [str(path), name, param],
                    ).fetchall()
                )
                for g in ours:
                    mine = g["values"][i]["result"] == "excluded"
                    if holds is not None and text in holds[g["index"]]:
                        assert not mine, (writer, name, text, g["index"], "excluded a stored value")
                    if name in DUCKDB_CANNOT_PROBE:
                        continue
                    assert mine == got[g["index"]], (writer, path.name, name, text, g["index"], mine, got)
                    agreed += 1
                    excluded_both += mine
    assert agreed > 500 and excluded_both > 100, (agreed, excluded_both)


@pytest.fixture(scope="module")
def pyarrow_file(tmp_path_factory) -> Path:
    return write_files("pyarrow", tmp_path_factory.mktemp("hyp") / "data.parquet")[0]


@given(
    st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=5),
    st.lists(st.text(max_size=12), min_size=1, max_size=5),
)
def test_probe_agrees_with_duckdb_any_value(pyarrow_file: Path, ints: list[int], texts: list[str]) -> None:
    con = duckdb.connect()
    for name, values in (("i64", ints), ("str", texts)):
        report = probe.run([str(pyarrow_file)], name, [str(v) for v in values])
        for i, v in enumerate(values):
            got = dict(
                con.execute(
                    "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?)",
                    [str(pyarrow_file), name, v],
                ).fetchall()
            )
            for g in report["files"][0]["row_groups"]:
                assert (g["values"][i]["result"] == "excluded") == got[g["index"]], (name, v, g["index"])


def test_verify_rebuild_passes_on_every_writer(written) -> None:
    """Every stored value of every type, read back with pyarrow and hashed, is in its chunk's filter."""
    from bloomparquet.tools import verify

    writer, files = written
    report = verify.run([str(p) for p in files], rebuild=True)
    assert report["ok"], report["files"]
    assert report["summary"]["filters"] >= 2 * (len(WRITERS[writer]) - 2), report["summary"]
    assert all(f["notes"] == [] for f in report["files"]), [f["notes"] for f in report["files"]]
