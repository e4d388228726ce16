"""Files written through the bloomparquet write format: every written value checks
true in the JVM, the Python reference and DuckDB; each filter is sized for its
chunk's real distinct count; the filters of a file sit together; Spark reads back
exactly what was written."""

from __future__ import annotations

import duckdb
import numpy as np
import pyarrow.parquet as pq
import pytest

from bloomparquet._session import java_map
from bloomparquet.reference import optimal_num_bytes, read_bloom_filters, xxh64_plain

from .plain import chunks, plain_bytes
from .spark_conf import spark_conf
from .write_format import WRITE_FORMAT, filter_bytes

pytestmark = pytest.mark.spark

ROWS = 500
# Struct last: DuckDB's probe resolves top-level names to leaf positions.
SELECT = """
SELECT
  CAST(id % 200 - 100 AS TINYINT) AS i8,
  CAST(id * 37 % 30000 - 15000 AS SMALLINT) AS i16,
  CAST(id * 7919 - 500000 AS INT) AS i32,
  id * -1000000007 AS i64,
  CAST(id / 7 AS FLOAT) AS f32,
  CASE WHEN id % 50 = 0 THEN -0.0D ELSE id / 3.0D END AS f64,
  CAST((id % 99999) / 100 AS DECIMAL(5, 2)) AS dec5,
  CAST(id * 1234567 / 1000 AS DECIMAL(15, 3)) AS dec15,
  CAST(id * 12345678901 AS DECIMAL(30, 4)) AS dec30,
  CASE WHEN id % 97 = 0 THEN NULL ELSE concat('user-', id % 700, '-ü日') END AS str,
  CAST(concat('b', id % 500) AS BINARY) AS bin,
  date_add(DATE'2000-01-01', CAST(id AS INT)) AS d,
  timestamp_micros(id * 1000003 + 1600000000000000) AS ts,
  CAST(timestamp_micros(id * 999983 + 1500000000000000) AS TIMESTAMP_NTZ) AS ntz,
  named_struct('x', id % 300, 'y', concat('k', id)) AS s
FROM range({rows})
"""
COLUMNS = "i8,i16,i32,i64,f32,f64,dec5,dec15,dec30,str,bin,d,ts,ntz,s.x,s.y"
FPP = 0.02


@pytest.fixture(scope="module")
def written(spark, tmp_path_factory):
    df = spark.sql(SELECT.format(rows=ROWS))
    out = tmp_path_factory.mktemp("roundtrip") / "t"
    with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS"}):
        (
            df.coalesce(1)
            .write.format(WRITE_FORMAT)
            .option("bloom.columns", COLUMNS)
            .option("BLOOM.FPP", str(FPP))  # keys are case-insensitive
            .option("parquet.block.size", 8 * 1024)
            .save(str(out))
        )
    files = sorted(out.glob("*.parquet"))
    assert files and pq.ParquetFile(files[0]).metadata.num_row_groups >= 3
    return df, out, files


def test_physical_types_covered(written) -> None:
    _, _, files = written
    schema = pq.ParquetFile(files[0]).schema
    physical = {schema.column(i).path: schema.column(i).physical_type for i in range(len(schema))}
    assert physical["dec5"] == "INT32" and physical["dec15"] == "INT64" and physical["dec30"] == "FIXED_LEN_BYTE_ARRAY"
    assert physical["ts"] == "INT64" and physical["ntz"] == "INT64" and physical["i8"] == "INT32"


def test_every_value_checks_true_jvm_and_python_and_sizes_are_optimal(written, bridge, spark) -> None:
    _, _, files = written
    checked = set()
    for path in files:
        stored = read_bloom_filters(path)
        jvm = {k: bytes(v) for k, v in java_map(bridge.readFilters(str(path))).items()}
        assert {f"{rg}/{c}" for rg, c in stored} == set(jvm)
        for rg, col, ptype, type_length, values in chunks(str(path)):
            filt = stored[(rg, col)]
            hashes = xxh64_plain(values, ptype)
            assert filt.check_hashes(hashes).all(), (rg, col)
            ndv = len(np.unique(hashes))
            assert filt.num_bytes == filter_bytes(spark, ndv, FPP), (rg, col)
            # The spec formula's size, grown by at most 10 % to meet the FPP for real SBBFs.
            assert optimal_num_bytes(ndv, FPP) <= filt.num_bytes <= 1.1 * optimal_num_bytes(ndv, FPP) + 32
            jvm_hashes = bytes(bridge.hashPlain(ptype, plain_bytes(values, ptype), type_length or 0))
            assert jvm_hashes == hashes.astype("<u8").tobytes()
            answers = bytes(bridge.checkHashes(jvm[f"{rg}/{col}"], jvm_hashes))
            assert all(answers), (rg, col)
            checked.add(col)
    assert checked == set(COLUMNS.split(","))


def test_filters_contiguous_with_lengths(written) -> None:
    _, _, files = written
    for path in files:
        meta = pq.ParquetFile(path).metadata
        ranges = []
        for rg in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                chunk = meta.row_group(rg).column(c)
                assert chunk.bloom_filter_offset is not None and chunk.bloom_filter_length > 0
                ranges.append((chunk.bloom_filter_offset, chunk.bloom_filter_length))
        ranges.sort()
        for (o1, l1), (o2, _) in zip(ranges, ranges[1:]):
            assert o1 + l1 == o2, "filters are not contiguous"


def _duckdb_value(v):
    return v.hex() if isinstance(v, (bytes, bytearray)) else v


def test_duckdb_probe_uses_our_filters(written) -> None:
    _, _, files = written
    con = duckdb.connect()
    top = [c for c in COLUMNS.split(",") if "." not in c]
    for path in files:
        table = pq.read_table(path)
        meta = pq.ParquetFile(path).metadata
        starts = np.cumsum([0] + [meta.row_group(i).num_rows for i in range(meta.num_row_groups)])
        for col in top:
            values = table.column(col).to_pylist()
            expr = "from_hex(?)" if col == "bin" else "?"
            seen = set()
            for row, v in enumerate(values):
                if v is None or (col, v) in seen:
                    continue
                seen.add((col, v))
                rg = int(np.searchsorted(starts, row, side="right") - 1)
                got = con.execute(
                    f"SELECT bloom_filter_excludes FROM parquet_bloom_probe(?, ?, {expr}) WHERE row_group_id = ?",
                    [str(path), col, _duckdb_value(v), rg],
                ).fetchall()
                assert got == [(False,)], (col, v, rg, got)
        # An absent key is excluded from most row groups: DuckDB reads our filters.
        got = con.execute("SELECT bloom_filter_excludes FROM parquet_bloom_probe(?, 'str', 'absent-key')", [str(path)])
        assert sum(x for (x,) in got.fetchall()) >= meta.num_row_groups - 1


def test_spark_reads_back_input(written, spark) -> None:
    df, out, _ = written
    back = spark.read.parquet(str(out))
    assert back.schema.simpleString() == df.schema.simpleString()
    assert back.exceptAll(df).count() == 0 and df.exceptAll(back).count() == 0
    assert pq.read_table(out).num_rows == ROWS
