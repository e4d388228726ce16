"""Test data for the read path: one table over 15 column types (nullable, with
struct leaves, +-0.0 and NaN), written by Spark's Parquet writer and by pyarrow
with bloom filters on every column, and SQL literals to probe it with."""

from __future__ import annotations

import datetime as dt
import decimal
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 6000
POOL = 400  # distinct values per column: each row group holds a fraction of them


@dataclass(frozen=True)
class Column:
    name: str  # SQL reference (struct leaves dotted)
    sql_type: str
    pool: tuple[Any, ...]  # python values present in the data (non-null)


def _decimal(rng: np.random.Generator, n: int, precision: int, scale: int) -> list[decimal.Decimal]:
    digits = precision - 1
    return [
        decimal.Decimal(int(v)).scaleb(-scale) for v in rng.integers(-(10**digits) + 1, 10**digits, n, dtype=np.int64)
    ]


def _pools(rng: np.random.Generator) -> dict[str, list[Any]]:
    base_day = dt.date(1970, 1, 1)
    ts0 = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
    floats = [float(x) for x in rng.normal(0, 1000, POOL - 3).astype(np.float32)] + [0.0, -0.0, math.nan]
    doubles = [float(x) for x in rng.normal(0, 1e6, POOL - 3)] + [0.0, -0.0, math.nan]
    return {
        "b": [int(x) for x in rng.integers(-128, 128, POOL)],
        "sh": [int(x) for x in rng.integers(-(2**15), 2**15, POOL)],
        "i": [int(x) for x in rng.integers(-(2**31), 2**31, POOL)],
        "l": [int(x) for x in rng.integers(-(2**62), 2**62, POOL)],
        "f": floats,
        "d": doubles,
        "dec7": _decimal(rng, POOL, 7, 2),
        "dec15": _decimal(rng, POOL, 15, 3),
        "dec28": [v * (10**12) for v in _decimal(rng, POOL, 16, 4)],
        "str": [f"user-{int(x)}-{['', 'ü', '日本', 'é😀'][int(x) % 4]}" for x in rng.integers(0, 10**9, POOL - 1)]
        + [""],
        "bin": [bytes(rng.integers(0, 256, int(n), dtype=np.uint8)) for n in rng.integers(0, 12, POOL)],
        "dt": [base_day + dt.timedelta(days=int(x)) for x in rng.integers(-20000, 30000, POOL)],
        "ts": [ts0 + dt.timedelta(microseconds=int(x)) for x in rng.integers(-(10**15), 10**15, POOL)],
        "ntz": [
            dt.datetime(2010, 6, 1) + dt.timedelta(microseconds=int(x)) for x in rng.integers(-(10**15), 10**15, POOL)
        ],
        "sx": [int(x) for x in rng.integers(-(10**12), 10**12, POOL)],
        "sy": [f"k{int(x)}" for x in rng.integers(0, 10**6, POOL)],
    }


_ARROW_TYPES = {
    "b": pa.int8(),
    "sh": pa.int16(),
    "i": pa.int32(),
    "l": pa.int64(),
    "f": pa.float32(),
    "d": pa.float64(),
    "dec7": pa.decimal128(7, 2),
    "dec15": pa.decimal128(15, 3),
    "dec28": pa.decimal128(28, 4),
    "str": pa.string(),
    "bin": pa.binary(),
    "dt": pa.date32(),
    "ts": pa.timestamp("us", tz="UTC"),
    "ntz": pa.timestamp("us"),
}
SQL_TYPES = {
    "b": "TINYINT",
    "sh": "SMALLINT",
    "i": "INT",
    "l": "BIGINT",
    "f": "FLOAT",
    "d": "DOUBLE",
    "dec7": "DECIMAL(7,2)",
    "dec15": "DECIMAL(15,3)",
    "dec28": "DECIMAL(28,4)",
    "str": "STRING",
    "bin": "BINARY",
    "dt": "DATE",
    "ts": "TIMESTAMP",
    "ntz": "TIMESTAMP_NTZ",
    "st.x": "BIGINT",
    "st.y": "STRING",
}


def make_table(seed: int = 11) -> tuple[pa.Table, list[Column]]:
    rng = np.random.default_rng(seed)
    pools = _pools(rng)

    def draw(name: str) -> list[Any]:
        pool = pools[name]
        idx = rng.integers(0, len(pool), ROWS)
        nulls = rng.random(ROWS) < 0.1
        return [None if n else pool[k] for k, n in zip(idx, nulls)]

    arrays = {name: pa.array(draw(name), t) for name, t in _ARROW_TYPES.items()}
    struct_nulls = rng.random(ROWS) < 0.05
    arrays["st"] = pa.StructArray.from_arrays(
        [pa.array(draw("sx"), pa.int64()), pa.array(draw("sy"), pa.string())],
        names=["x", "y"],
        mask=pa.array(struct_nulls),
    )
    arrays["row_id"] = pa.array(np.arange(ROWS, dtype=np.int64))
    table = pa.table(arrays)
    columns = [Column(n, SQL_TYPES[n], tuple(pools[n])) for n in _ARROW_TYPES]
    columns += [Column("st.x", "BIGINT", tuple(pools["sx"])), Column("st.y", "STRING", tuple(pools["sy"]))]
    return table, columns


BLOOM_COLUMNS = [*list(_ARROW_TYPES), "st.x", "st.y"]


def write_pyarrow(table: pa.Table, out: Path, files: int = 3) -> None:
    out.mkdir(parents=True, exist_ok=True)
    per = len(table) // files
    for f in range(files):
        part = table.slice(f * per, per if f < files - 1 else len(table) - f * per)
        pq.write_table(
            part,
            out / f"part-{f}.parquet",
            row_group_size=500,
            bloom_filter_options={c: {"ndv": 300, "fpp": 0.05} for c in BLOOM_COLUMNS},
        )


def write_spark(spark, table: pa.Table, out: Path, files: int = 3) -> None:
    df = spark.createDataFrame(table).repartition(files, "row_id")
    writer = df.write.mode("overwrite").option("parquet.block.size", 24 * 1024)
    for c in BLOOM_COLUMNS:
        writer = writer.option(f"parquet.bloom.filter.enabled#{c}", "true")
        writer = writer.option(f"parquet.bloom.filter.expected.ndv#{c}", "300")
    writer.parquet(str(out))


def write_bloomparquet(spark, table: pa.Table, out: Path, files: int = 3) -> None:
    """Written by bloomparquet's own writer (filters sized from each row group's distinct values)."""
    df = spark.createDataFrame(table).repartition(files, "row_id")
    (
        df.write.format("bloomparquet")
        .mode("overwrite")
        .option("parquet.block.size", 24 * 1024)
        .option("bloom.columns", ",".join(BLOOM_COLUMNS))
        .option("bloom.fpp", "0.05")
        .save(str(out))
    )


def sql_literal(sql_type: str, value: Any) -> str:
    """A Spark SQL literal of ``sql_type`` for a python value (None -> typed NULL)."""
    if value is None:
        return f"CAST(NULL AS {sql_type})"
    if sql_type in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return f"CAST({value} AS {sql_type})" if sql_type != "INT" else str(value)
    if sql_type in ("FLOAT", "DOUBLE"):
        text = "NaN" if math.isnan(value) else repr(float(value))
        return f"CAST('{text}' AS {sql_type})"
    if sql_type.startswith("DECIMAL"):
        return f"CAST('{value}' AS {sql_type})"
    if sql_type == "STRING":
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if sql_type == "BINARY":
        return f"X'{value.hex()}'"
    if sql_type == "DATE":
        return f"DATE'{value.isoformat()}'"
    if sql_type == "TIMESTAMP":
        return f"TIMESTAMP'{value.astimezone(dt.UTC).strftime('%Y-%m-%d %H:%M:%S.%f')}+00:00'"
    if sql_type == "TIMESTAMP_NTZ":
        return f"TIMESTAMP_NTZ'{value.strftime('%Y-%m-%d %H:%M:%S.%f')}'"
    raise ValueError(sql_type)
