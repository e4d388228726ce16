"""File classes DuckDB writes: its v1 and v2 (DELTA encodings) pages, its decimals, and bloom
filters it writes by itself on dictionary-encoded chunks (so the dictionary limit is raised)."""

from __future__ import annotations

import decimal
from pathlib import Path

import duckdb

from .pyarrow_classes import _decimals, _ints
from .rows import HIT_ID, ROW_GROUP, base_table
from .spec import FileClass

_OPTIONS = f"FORMAT parquet, ROW_GROUP_SIZE {ROW_GROUP}, DICTIONARY_SIZE_LIMIT 100000"


def _copy(out: Path, extra: str, dictionary_limit: bool = True) -> None:
    source = _decimals(_ints(base_table()))  # noqa: F841 - read by DuckDB's replacement scan
    options = _OPTIONS if dictionary_limit else _OPTIONS.split(", DICTIONARY")[0]
    con = duckdb.connect()
    con.execute(f"COPY (SELECT * FROM source ORDER BY id) TO '{out / 'part-0.parquet'}' ({options}{extra})")
    con.close()


def duckdb_v1(out: Path, _spark: object) -> None:
    _copy(out, "")


def duckdb_v2(out: Path, _spark: object) -> None:
    _copy(out, ", PARQUET_VERSION V2")


def duckdb_v2_delta(out: Path) -> None:
    """V2 with DuckDB's default dictionary limit: DELTA encodings, and so no filters (see spark_classes)."""
    _copy(out, ", PARQUET_VERSION V2", dictionary_limit=False)


_PREDICATES = [
    f"i32 = {HIT_ID * 7 - 5000}",
    "i32 = 1",
    f"d9 = CAST('{HIT_ID / 100:.2f}' AS DECIMAL(9,2))",
    f"d18 = CAST('{decimal.Decimal(HIT_ID * 10**9).scaleb(-3)}' AS DECIMAL(18,3))",
    f"d30 = CAST('{decimal.Decimal(HIT_ID * 10**20).scaleb(-2)}' AS DECIMAL(30,2))",
]
CLASSES = [
    FileClass("duckdb_v1_pages", duckdb_v1, "(DuckDB's writer, bloom filters on dictionary chunks)", _PREDICATES),
    FileClass(
        "duckdb_v2_pages", duckdb_v2, "(DuckDB's PARQUET_VERSION V2 pages, dictionary chunks with filters)", _PREDICATES
    ),
]
