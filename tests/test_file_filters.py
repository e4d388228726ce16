"""Filters written by Spark (parquet-java), pyarrow and DuckDB read back exactly:
rebuilding each chunk's bitset from its values at the stored size reproduces the
stored bytes, in Python and in the JVM, and every stored value checks true."""

from __future__ import annotations

import datetime as dt
import decimal
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bloomparquet._session import java_map
from bloomparquet.reference import SplitBlockBloomFilter, read_bloom_filters, xxh64_plain

from .plain import chunks, plain_bytes
from .spark_conf import spark_conf

pytestmark = pytest.mark.spark

N = 6000


def _arrow_table(distinct: int | None = None) -> pa.Table:
    rng = np.random.default_rng(3)
    ids = rng.permutation(N * 7)[:N]
    if distinct:  # DuckDB writes filters for dictionary-encoded chunks only
        ids = ids % distinct
    strings = [None if i % 97 == 0 else f"user-{i}-ü日" for i in ids]
    return pa.table(
        {
            "i32": pa.array(ids.astype(np.int32) - 20000, pa.int32()),
            "i64": pa.array(ids.astype(np.int64) * -1_000_000_007, pa.int64()),
            "f32": pa.array((ids / 7).astype(np.float32), pa.float32()),
            "f64": pa.array(np.where(ids % 50 == 0, -0.0, ids / 3.0), pa.float64()),
            "str": pa.array(strings, pa.string()),
            "bin": pa.array([bytes([i % 256, (i // 256) % 256]) * (i % 5) for i in ids], pa.binary()),
            "flba": pa.array([int(i).to_bytes(6, "little") for i in ids], pa.binary(6)),
            "date": pa.array([dt.date(2000, 1, 1) + dt.timedelta(days=int(i)) for i in ids], pa.date32()),
            "ts": pa.array(ids.astype(np.int64) * 1_000_003, pa.timestamp("us", tz="UTC")),
            "dec": pa.array([decimal.Decimal(int(i)).scaleb(-2) for i in ids], pa.decimal128(20, 2)),
            "s": pa.StructArray.from_arrays(
                [pa.array(ids.astype(np.int64)), pa.array([f"k{i}" for i in ids])], names=["x", "y"]
            ),
        }
    )


def _write_pyarrow(path: Path) -> None:
    table = _arrow_table()
    opts = {c: {"ndv": 2000, "fpp": 0.01} for c in table.column_names if c != "s"}
    opts.update({"s.x": {"ndv": 2000, "fpp": 0.01}, "s.y": {"ndv": 500, "fpp": 0.05}})
    pq.write_table(table, path, row_group_size=2000, bloom_filter_options=opts)


def _write_duckdb(path: Path) -> None:
    con = duckdb.connect()
    con.register("source", _arrow_table(distinct=300))
    con.execute(f"COPY (SELECT * FROM source) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 2048)")
    con.close()


def _write_spark(spark, path: Path) -> None:
    table = _arrow_table().drop(["flba", "dec"])
    df = spark.createDataFrame(table)
    df = df.selectExpr(
        "*",
        "CAST(i64 % 1000000 AS DECIMAL(9,2)) AS dec9",
        "CAST(i64 AS DECIMAL(18,0)) AS dec18",
        "CAST(i64 AS DECIMAL(30,3)) AS dec30",
    )
    writer = df.coalesce(1).write.mode("overwrite").option("parquet.block.size", 64 * 1024)
    for c in ["i32", "i64", "f32", "f64", "str", "bin", "date", "ts", "dec9", "dec18", "dec30", "s.x", "s.y"]:
        writer = writer.option(f"parquet.bloom.filter.enabled#{c}", "true")
    writer.option("parquet.bloom.filter.expected.ndv#i64", "3000").parquet(str(path))


def _files(root: Path) -> list[Path]:
    return sorted(root.glob("*.parquet")) if root.is_dir() else [root]


@pytest.fixture(scope="module", params=["spark", "pyarrow", "duckdb"])
def written(request, spark, tmp_path_factory) -> list[Path]:
    out = tmp_path_factory.mktemp(request.param) / "data.parquet"
    if request.param == "spark":
        with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS"}):
            _write_spark(spark, out)
    elif request.param == "pyarrow":
        _write_pyarrow(out)
    else:
        _write_duckdb(out)
    return _files(out)


def test_rebuilt_bitsets_equal_stored(written: list[Path], bridge) -> None:
    checked = 0
    for path in written:
        stored = read_bloom_filters(path)
        jvm_stored = {k: bytes(v) for k, v in java_map(bridge.readFilters(str(path))).items()}
        assert {f"{rg}/{col}" for rg, col in stored} == set(jvm_stored)
        for rg, col, ptype, type_length, values in chunks(str(path)):
            if (rg, col) not in stored:
                continue
            filt = stored[(rg, col)]
            assert jvm_stored[f"{rg}/{col}"] == filt.to_bytes(), (rg, col)
            hashes = xxh64_plain(values, ptype)
            assert filt.check_hashes(hashes).all(), (rg, col)
            rebuilt = SplitBlockBloomFilter(filt.num_bytes)
            rebuilt.insert_hashes(hashes)
            assert rebuilt.to_bytes() == filt.to_bytes(), (path.name, rg, col, ptype)
            jvm_hashes = bytes(bridge.hashPlain(ptype, plain_bytes(values, ptype), type_length or 0))
            assert jvm_hashes == hashes.astype("<u8").tobytes(), (rg, col)
            assert bytes(bridge.buildFilter("auto", filt.num_bytes, jvm_hashes)) == filt.to_bytes(), (rg, col)
            checked += 1
    assert checked >= 5, f"only {checked} chunks had filters"
