"""The fact table of the key-set tests (tests/test_key_sets.py, tests/test_local_key_sets.py): what
each row stores, so a test knows present and absent keys. The ``fact`` fixture (tests/conftest.py) writes it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

ROWS = 20_000
COLUMNS = {"i": "int", "l": "bigint", "s": "string", "d": "decimal(10,2)", "dt": "date"}


def stored_value(column: str, n: int) -> object:
    """The value row ``n`` stores in ``column`` (even ``n`` only: odd ones are absent)."""
    return {
        "i": n,
        "l": n * 1_000_003,
        "s": f"user-{n}",
        "d": Decimal(n) / 100,
        "dt": dt.date(2000, 1, 1) + dt.timedelta(days=n),
    }[column]


def write_fact(spark, path: Path) -> Path:
    """Shuffled even ids in 20 row groups, a filter on every column (bloomparquet's writer)."""
    df = (
        spark.range(ROWS)
        .selectExpr("(id * 7919 % 20000) * 2 as n")
        .selectExpr(
            "cast(n as int) as i",
            "n * 1000003 as l",
            "concat('user-', n) as s",
            "cast(n / 100 as decimal(10,2)) as d",
            "date_add(date'2000-01-01', cast(n as int)) as dt",
        )
    )
    (
        df.coalesce(1)
        .write.format("bloomparquet")
        .option("bloom.columns", ",".join(COLUMNS))
        .option("parquet.block.size", 24 * 1024)
        .save(str(path))
    )
    return path


def lookup_sql(source: str, key_file: str, how: str) -> str:
    """SQL looking the keys of Parquet file ``key_file`` (column ``l``) up in ``source``:
    ``inner`` join, ``left_semi`` join or ``in_subquery``, every column of ``source`` out."""
    keys = f"parquet.`{key_file}`"
    return {
        "inner": f"SELECT f.* FROM {source} f JOIN {keys} k ON f.l = k.l",
        "left_semi": f"SELECT * FROM {source} f LEFT SEMI JOIN {keys} k ON f.l = k.l",
        "in_subquery": f"SELECT * FROM {source} WHERE l IN (SELECT l FROM {keys})",
    }[how]
