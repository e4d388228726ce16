"""Parquet files with bloom filters written by pyarrow, DuckDB, Spark (parquet-java) and
our writer, over every type each writer can filter, and the values to probe them with:
shared by the CLI's and SQL's agreement tests against DuckDB's ``parquet_bloom_probe``."""

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


def arrow_table(ids: np.ndarray, names: list[str]) -> pa.Table:
    cols = {}
    for n in names:
        t, f = COLUMNS[n]
        values = [f(int(i)) for i in ids]
        cols[n] = pa.array(values, pa.int64()).cast(t) if pa.types.is_timestamp(t) else pa.array(values, t)
    return pa.table(cols)


def data_ids(distinct: int | None = None) -> np.ndarray:
    ids = np.random.default_rng(7).permutation(N) * 2 + 2
    return ids % (2 * distinct) + 2 if distinct else ids


def write_files(writer: str, out: Path, spark: Any = None) -> list[Path]:
    names = WRITERS[writer]
    if writer == "pyarrow":
        table = arrow_table(data_ids(), names)
        opts = {c: {"ndv": ROW_GROUP, "fpp": 0.05} for c in names}
        pq.write_table(table, out, row_group_size=ROW_GROUP, bloom_filter_options=opts, store_decimal_as_integer=True)
        return [out]
    if writer == "duckdb":  # filters for dictionary-encoded chunks only: few distinct values
        con = duckdb.connect()
        con.register("source", arrow_table(data_ids(distinct=300), names))
        con.execute(f"COPY (SELECT * FROM source) TO '{out}' (FORMAT parquet, ROW_GROUP_SIZE {ROW_GROUP})")
        con.close()
        return [out]
    df = spark.createDataFrame(arrow_table(data_ids(), names)).coalesce(1)
    w = df.write.mode("overwrite").option("parquet.block.size", 48 * 1024)
    with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS"}):
        if writer == "spark":
            for c in names:
                w = w.option(f"parquet.bloom.filter.enabled#{c}", "true")
            w.parquet(str(out))
        else:
            w.format("bloomparquet").option("bloom.columns", ",".join(names)).save(str(out))
    return sorted(out.glob("*.parquet"))


@pytest.fixture(
    scope="module",
    params=[pytest.param(w, marks=[pytest.mark.spark] if w in ("spark", "ours") else []) for w in WRITERS],
)
def written(request, tmp_path_factory) -> tuple[str, list[Path]]:
    spark = request.getfixturevalue("spark") if request.param in ("spark", "ours") else None
    files = write_files(request.param, tmp_path_factory.mktemp(request.param) / "data.parquet", spark)
    return request.param, files


def cli_text(v: Any) -> str:
    if isinstance(v, bytes):
        return "0x" + v.hex()
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    return repr(v) if isinstance(v, float) else str(v)


def probe_values(name: str, data: pa.Table) -> list[tuple[str, Any]]:
    """(CLI text, DuckDB parameter) for 30 stored and 30 absent values of column ``name``."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    stored = pa.compute.unique(data.column(name)).to_pylist()
    picks = [stored[i] for i in rng.choice(len(stored), size=min(30, len(stored)), replace=False)]
    absent_ids = rng.integers(0, N, size=30) * 2 + 1
    t = COLUMNS[name][0]
    picks += arrow_table(absent_ids, [name]).column(name).to_pylist()
    out = []
    for v in picks:
        if pa.types.is_timestamp(t):  # via Arrow's own formatting: ns precision, offset for UTC
            s = str(pa.scalar(v, t)) if not isinstance(v, int) else str(pa.scalar(v, pa.int64()).cast(t))
            out.append((s, s))
        else:
            out.append((cli_text(v), v))
    return out


def present(data: pa.Table, name: str, starts: list[int]) -> list[set[str]]:
    """Per row group, the CLI texts of the values it holds."""
    col = data.column(name)
    return [{cli_text(v) for v in col.slice(a, b - a).to_pylist()} for a, b in zip(starts, starts[1:])]
