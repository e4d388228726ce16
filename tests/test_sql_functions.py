"""The SQL table functions ``bloomparquet_filters`` and ``bloomparquet_probe``: the
listing matches the footer (as pyarrow reads it) and the CLI's ``inspect`` estimates,
and the probe agrees with DuckDB's ``parquet_bloom_probe`` on files written by
pyarrow, DuckDB, Spark and our writer, never excluding a row group holding the value."""

from __future__ import annotations

import datetime as dt
import decimal
import shutil
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bloomparquet.tools import inspect

from .probe_files import DUCKDB_CANNOT_PROBE, present, probe_values, written
from .spark_conf import spark_conf
from .test_broken_filters import set_header_num_bytes

__all__ = ["written"]  # a fixture

pytestmark = pytest.mark.spark

# The columns probed through SQL: the types a SQL constant names directly.
PROBED = {"i32", "i64", "str", "bin", "dec9", "dec18", "dec30", "date", "ts_us"}


def _sql_literal(name: str, v: Any) -> str:
    """``v`` as a SQL constant of column ``name``'s type (ints, decimals as written: SQL types them)."""
    if name.startswith("ts_"):  # Arrow's text with its +00:00 offset
        return f"TIMESTAMP'{v}'"
    if isinstance(v, str):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(v, bytes):
        return f"X'{v.hex()}'"
    if isinstance(v, dt.date):
        return f"DATE'{v.isoformat()}'"
    if isinstance(v, decimal.Decimal):
        return f"{v}BD"
    return str(v)


def _name(file: str) -> str:
    return Path(file.removeprefix("file:")).name


def test_probe_agrees_with_duckdb(spark, written) -> None:
    writer, files = written
    path = str(files[0].parent) if len(files) > 1 else str(files[0])
    con = duckdb.connect()
    agreed = excluded_both = 0
    for name in sorted(PROBED & {c for c in _filtered(files[0])}):
        datas = {f.name: pq.read_table(f) for f in files}
        values = probe_values(name, pa.concat_tables(datas.values()))[::3]  # every third: 10 stored, 10 absent
        query = " UNION ALL ".join(
            f"SELECT {i} AS v, * FROM bloomparquet_probe('{path}', '{name}', {_sql_literal(name, p)})"
            for i, (_, p) in enumerate(values)
        )
        ours = {(r.v, _name(r.file), r.row_group): r for r in spark.sql(query).collect()}
        for f in files:
            meta = pq.ParquetFile(f).metadata
            starts = list(np.cumsum([0] + [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]))
            holds = present(datas[f.name], name, starts) if not name.startswith("ts_") else None
            for i, (text, param) in enumerate(values):
                got = dict(
                    con.execute(
                        "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?)",
                        [str(f), name, param],
                    ).fetchall()
                )
                for rg in range(meta.num_row_groups):
                    row = ours[(i, f.name, rg)]
                    assert row.column == name and row.result in ("excluded", "may-contain"), row
                    mine = row.result == "excluded"
                    assert not (mine and holds is not None and text in holds[rg]), (
                        writer,
                        name,
                        text,
                        rg,
                        "excluded a stored value",
                    )
                    if name in DUCKDB_CANNOT_PROBE:
                        continue
                    assert mine == got[rg], (writer, f.name, name, text, rg, mine, got)
                    agreed += 1
                    excluded_both += mine
    assert agreed > 100 and excluded_both > 30, (agreed, excluded_both)


def _filtered(f: Path) -> set[str]:
    meta = pq.ParquetFile(f).metadata
    rg = meta.row_group(0)
    return {
        rg.column(c).path_in_schema for c in range(meta.num_columns) if rg.column(c).bloom_filter_offset is not None
    }


def test_filters_match_footer_and_inspect(spark, written) -> None:
    writer, files = written
    path = str(files[0].parent) if len(files) > 1 else str(files[0])
    rows = spark.sql(f"SELECT * FROM bloomparquet_filters('{path}')").collect()
    got = {(_name(r.file), r.row_group, r.column): r for r in rows}
    want = {}
    for f in files:
        meta = pq.ParquetFile(f).metadata
        for rg in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                chunk = meta.row_group(rg).column(c)
                if chunk.bloom_filter_offset is not None:
                    want[(f.name, rg, chunk.path_in_schema)] = chunk
    assert set(got) == set(want), writer
    report = inspect.run([str(f) for f in files])
    for fr in report["files"]:
        for g in fr["row_groups"]:
            for c in g["columns"]:
                if not c["has_filter"]:
                    continue
                r = got[(Path(fr["path"]).name, g["index"], c["column"])]
                chunk = want[(Path(fr["path"]).name, g["index"], c["column"])]
                assert r.offset == chunk.bloom_filter_offset == c["filter_offset"]
                assert r.has_length == (chunk.bloom_filter_length is not None) == c["has_filter_length"]
                assert r.bytes == (chunk.bloom_filter_length or c["filter_bytes"])
                assert r.status == "ok" and r.num_bytes == c["filter_bytes"]
                assert r.estimated_fpp == pytest.approx(c["fpp"], rel=1e-9, abs=1e-15)
                if c["estimated_ndv"] is None:
                    assert r.estimated_ndv is None
                else:
                    assert r.estimated_ndv == pytest.approx(c["estimated_ndv"], rel=1e-9, abs=1e-9)


@pytest.fixture(scope="module")
def small_file(spark, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sqlfn") / "small"
    (
        spark.range(0, 1000)
        .selectExpr("id", "CAST(id AS STRING) AS s")
        .coalesce(1)
        .write.format("bloomparquet")
        .option("bloom.columns", "id")
        .save(str(out))
    )
    return out


def test_probe_column_without_filter_and_case(spark, small_file: Path) -> None:
    rows = spark.sql(f"SELECT * FROM bloomparquet_probe('{small_file}', 's', '5')").collect()
    assert rows and {r.result for r in rows} == {"no filter"}
    # Without spark.sql.caseSensitive, ID names column id; 5 is there, 5000 is not.
    hit = spark.sql(f"SELECT * FROM bloomparquet_probe('{small_file}', 'ID', 5)").collect()
    assert {(r.column, r.result) for r in hit} == {("id", "may-contain")}
    miss = spark.sql(f"SELECT * FROM bloomparquet_probe('{small_file}/*.parquet', 'id', 5000L)").collect()
    assert {r.result for r in miss} == {"excluded"}
    with spark_conf(spark, {"spark.sql.caseSensitive": "true"}), pytest.raises(Exception, match="unknown column 'ID'"):
        spark.sql(f"SELECT * FROM bloomparquet_probe('{small_file}', 'ID', 5)").collect()


def test_probe_errors(spark, small_file: Path) -> None:
    with pytest.raises(Exception, match="nope"):
        spark.sql(f"SELECT * FROM bloomparquet_probe('{small_file}', 'nope', 1)").collect()
    with pytest.raises(Exception, match="must be a constant"):
        spark.sql(f"SELECT * FROM bloomparquet_probe('{small_file}', 'id', rand())").collect()
    with pytest.raises(Exception, match="must be a constant"):
        spark.sql("SELECT * FROM bloomparquet_filters(uuid())").collect()
    with pytest.raises(Exception, match="no file matches"):
        spark.sql(f"SELECT * FROM bloomparquet_filters('{small_file}/missing-*.parquet')").collect()
    with pytest.raises(Exception, match="no file matches"):
        spark.sql(f"SELECT * FROM bloomparquet_probe('{small_file}/missing', 'id', 1)").collect()


def test_broken_filter(spark, small_file: Path, tmp_path: Path) -> None:
    f = tmp_path / "broken.parquet"
    shutil.copy(next(small_file.glob("*.parquet")), f)
    set_header_num_bytes(f, 0, 33)
    listed = spark.sql(f"SELECT * FROM bloomparquet_filters('{f}')").collect()
    assert [(r.row_group, r.column, r.num_bytes, r.estimated_fpp) for r in listed] == [(0, "id", None, None)]
    assert "33" in listed[0].status, listed[0].status
    probed = spark.sql(f"SELECT * FROM bloomparquet_probe('{f}', 'id', 5000L)").collect()
    assert [(r.row_group, r.result) for r in probed] == [(0, "unreadable filter")]
