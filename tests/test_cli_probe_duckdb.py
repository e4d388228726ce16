"""``bloomparquet probe`` agrees with DuckDB's ``parquet_bloom_probe`` row group by
row group, on files written by pyarrow, DuckDB, Spark (parquet-java) and our
writer, over present and absent values of every type each writer can filter;
and it never excludes a row group that holds the value."""

from __future__ import annotations

import datetime as dt
import decimal
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bloomparquet.tools import probe

from .spark_conf import spark_conf

N = 6000
ROW_GROUP = 1500

# name -> (arrow type, id -> value); ids are even in the data, odd ones are absent.
COLUMNS: dict[str, tuple[pa.DataType, Callable[[int], Any]]] = {
    "i8": (pa.int8(), lambda i: i % 251 - 125),
    "i32": (pa.int32(), lambda i: i * 7 - 100_000),
    "i64": (pa.int64(), lambda i: i * -1_000_000_007),
    "u32": (pa.uint32(), lambda i: (i * 2_654_435_761) % 2**32),
    "u64": (pa.uint64(), lambda i: i * 2**50 + 12345),
    "f32": (pa.float32(), lambda i: float(np.float32(i / 7))),
    "f64": (pa.float64(), lambda i: i / 3),
    "str": (pa.string(), lambda i: f"user-{i}-ü日"),
    "bin": (pa.binary(), lambda i: i.to_bytes(3, "little")),
    "flba": (pa.binary(6), lambda i: i.to_bytes(6, "little")),
    "date": (pa.date32(), lambda i: dt.date(1990, 1, 1) + dt.timedelta(days=i)),
    "ts_us": (pa.timestamp("us", tz="UTC"), lambda i: i * 1_000_003),
    "ts_ms": (pa.timestamp("ms"), lambda i: i * 1_007),
    "ts_ns": (pa.timestamp("ns"), lambda i: i * 1_000_000_007),
    "dec9": (pa.decimal128(9, 2), lambda i: decimal.Decimal(i).scaleb(-2)),
    "dec18": (pa.decimal128(18, 3), lambda i: decimal.Decimal(i * 1_000_003).scaleb(-3)),
    "dec30": (pa.decimal128(30, 2), lambda i: decimal.Decimal(i * 10**15).scaleb(-2)),
}
WRITERS: dict[str, list[str]] = {
    "pyarrow": list(COLUMNS),
    "duckdb": ["i8", "i32", "i64", "u32", "u64", "f32", "f64", "str", "bin", "date", "ts_us", "ts_ns", "dec9", "dec18"],
    "spark": ["i8", "i32", "i64", "f32", "f64", "str", "bin", "date", "ts_us", "dec9", "dec18", "dec30"],
    "ours": ["i8", "i32", "i64", "f32", "f64", "str", "bin", "date", "ts_us", "dec9", "dec18", "dec30"],
}
# DuckDB never excludes anything for these (its probe does not handle FIXED_LEN_BYTE_ARRAY
# decimals): only "ours never excludes a stored value" is checked for them.
DUCKDB_CANNOT_PROBE = {"dec30"}


def _table(ids: np.ndarray, names: list[str]) -> pa.Table:
    cols = {}
    for n in names:
        t, f = COLUMNS[n]
        values = [f(int(i)) for i in ids]
        cols[n] = pa.array(values, pa.int64()).cast(t) if pa.types.is_timestamp(t) else pa.array(values, t)
    return pa.table(cols)


def _data_ids(distinct: int | None = None) -> np.ndarray:
    ids = np.random.default_rng(7).permutation(N) * 2 + 2
    return ids % (2 * distinct) + 2 if distinct else ids


def _write(writer: str, out: Path, spark: Any = None) -> list[Path]:
    names = WRITERS[writer]
    if writer == "pyarrow":
        table = _table(_data_ids(), names)
        opts = {c: {"ndv": ROW_GROUP, "fpp": 0.05} for c in names}
        pq.write_table(table, out, row_group_size=ROW_GROUP, bloom_filter_options=opts, store_decimal_as_integer=True)
        return [out]
    if writer == "duckdb":  # filters for dictionary-encoded chunks only: few distinct values
        con = duckdb.connect()
        con.register("source", _table(_data_ids(distinct=300), names))
        con.execute(f"COPY (SELECT * FROM source) TO '{out}' (FORMAT parquet, ROW_GROUP_SIZE {ROW_GROUP})")
        con.close()
        return [out]
    df = spark.createDataFrame(_table(_data_ids(), names)).coalesce(1)
    w = df.write.mode("overwrite").option("parquet.block.size", 48 * 1024)
    with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS"}):
        if writer == "spark":
            for c in names:
                w = w.option(f"parquet.bloom.filter.enabled#{c}", "true")
            w.parquet(str(out))
        else:
            w.format("bloomparquet").option("bloom.columns", ",".join(names)).save(str(out))
    return sorted(out.glob("*.parquet"))


@pytest.fixture(scope="module", params=[pytest.param(w, marks=[pytest.mark.spark] if w in ("spark", "ours") else [])
                                        for w in WRITERS])
def written(request, tmp_path_factory) -> tuple[str, list[Path]]:  # noqa: ANN001
    spark = request.getfixturevalue("spark") if request.param in ("spark", "ours") else None
    files = _write(request.param, tmp_path_factory.mktemp(request.param) / "data.parquet", spark)
    return request.param, files


def _cli_text(v: Any) -> str:
    if isinstance(v, bytes):
        return "0x" + v.hex()
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    return repr(v) if isinstance(v, float) else str(v)


def _probe_values(name: str, data: pa.Table) -> list[tuple[str, Any]]:
    """(CLI text, DuckDB parameter) for 30 stored and 30 absent values of column ``name``."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    stored = pa.compute.unique(data.column(name)).to_pylist()
    picks = [stored[i] for i in rng.choice(len(stored), size=min(30, len(stored)), replace=False)]
    absent_ids = rng.integers(0, N, size=30) * 2 + 1
    t = COLUMNS[name][0]
    picks += _table(absent_ids, [name]).column(name).to_pylist()
    out = []
    for v in picks:
        if pa.types.is_timestamp(t):  # via Arrow's own formatting: ns precision, offset for UTC
            s = str(pa.scalar(v, t)) if not isinstance(v, int) else str(pa.scalar(v, pa.int64()).cast(t))
            out.append((s, s))
        else:
            out.append((_cli_text(v), v))
    return out


def _present(data: pa.Table, name: str, starts: list[int]) -> list[set[str]]:
    """Per row group, the CLI texts of the values it holds."""
    col = data.column(name)
    return [{_cli_text(v) for v in col.slice(a, b - a).to_pylist()} for a, b in zip(starts, starts[1:])]


def test_probe_agrees_with_duckdb(written) -> None:  # noqa: ANN001
    writer, files = written
    con = duckdb.connect()
    agreed = excluded_both = 0
    for path in files:
        meta = pq.ParquetFile(path).metadata
        assert meta.num_row_groups >= 2, f"{writer}: want several row groups"
        data = pq.read_table(path)
        starts = list(np.cumsum([0] + [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]))
        filtered = {meta.row_group(0).column(c).path_in_schema for c in range(meta.num_columns)
                    if meta.row_group(0).column(c).bloom_filter_offset is not None}
        assert filtered >= set(WRITERS[writer]) - {"i8"} - ({"ts_ns"} if writer == "duckdb" else set()), filtered
        for name in sorted(filtered):
            values = _probe_values(name, data)
            report = probe.run([str(path)], name, [t for t, _ in values])
            ours = report["files"][0]["row_groups"]
            holds = _present(data, name, starts) if not pa.types.is_timestamp(COLUMNS[name][0]) else None
            for i, (text, param) in enumerate(values):
                got = dict(con.execute(
                    "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?)",
                    [str(path), name, param]).fetchall())
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
    return _write("pyarrow", tmp_path_factory.mktemp("hyp") / "data.parquet")[0]


@given(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=5),
       st.lists(st.text(max_size=12), min_size=1, max_size=5))
def test_probe_agrees_with_duckdb_any_value(pyarrow_file: Path, ints: list[int], texts: list[str]) -> None:
    con = duckdb.connect()
    for name, values in (("i64", ints), ("str", texts)):
        report = probe.run([str(pyarrow_file)], name, [str(v) for v in values])
        for i, v in enumerate(values):
            got = dict(con.execute("SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?)",
                                   [str(pyarrow_file), name, v]).fetchall())
            for g in report["files"][0]["row_groups"]:
                assert (g["values"][i]["result"] == "excluded") == got[g["index"]], (name, v, g["index"])


def test_verify_rebuild_passes_on_every_writer(written) -> None:  # noqa: ANN001
    """Every stored value of every type, read back with pyarrow and hashed, is in its chunk's filter."""
    from bloomparquet.tools import verify

    writer, files = written
    report = verify.run([str(p) for p in files], rebuild=True)
    assert report["ok"], report["files"]
    assert report["summary"]["filters"] >= 2 * (len(WRITERS[writer]) - 2), report["summary"]
    assert all(f["notes"] == [] for f in report["files"]), [f["notes"] for f in report["files"]]
