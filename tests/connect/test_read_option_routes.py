"""The Connect column of the read options x routes table (tests/read_option_table.py): every read
option of the registry through a DataFrame (plan and task mode), SQL on a path (``WITH`` options),
a catalog table and plain ``parquet`` opted in, over Spark Connect, observed through the
execution's own metrics."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import bloomparquet as bp

from ..read_option_table import TABLE, Cell, Route, check_cell, registry_read_keys, write_data
from ..routes import PARQUET_OPT_IN

_names = itertools.count()


def _sql_options(options: dict[str, str]) -> str:
    return ", ".join(f"'{k}' = '{v}'" for k, v in options.items())


def _dataframe(base: dict[str, str]):
    def frame(spark, path: str, options: dict[str, str], where: str):
        return spark.read.format("bloomparquet").options(**{**base, **options}).load(path).where(where)

    return frame


def _table(spark, path: str, options: dict[str, str], where: str):
    name = f"connect_read_option_routes_{next(_names)}"
    clause = f"OPTIONS ({_sql_options(options)})" if options else ""
    spark.sql(f"CREATE TABLE {name} USING bloomparquet {clause} LOCATION '{path}'")
    return spark.table(name).where(where)


def _sql_path(spark, path: str, options: dict[str, str], where: str):
    clause = f"WITH ({_sql_options(options)})" if options else ""
    return spark.sql(f"SELECT * FROM bloomparquet.`{path}` {clause} WHERE {where}")


def _parquet(spark, path: str, options: dict[str, str], where: str):
    return spark.read.options(**options).parquet(path).where(where)


ROUTES = {
    "connect_dataframe_plan": Route(_dataframe({}), {}),
    "connect_dataframe_task": Route(_dataframe({"bloom.mode": "task"}), {}),
    "connect_sql_table": Route(_table, {}),
    "connect_sql_path": Route(_sql_path, {}),
    "connect_parquet_opt_in": Route(_parquet, PARQUET_OPT_IN),
}


@pytest.fixture(scope="module")
def data(connect, tmp_path_factory) -> Path:
    return write_data(connect, tmp_path_factory.mktemp("connect_read_option_routes") / "data")


@pytest.fixture(scope="module", autouse=True)
def _drop_tables(connect):
    yield
    for t in connect.catalog.listTables():
        if t.name.startswith("connect_read_option_routes_"):
            connect.sql(f"DROP TABLE {t.name}")


def test_every_registry_read_option_has_a_row() -> None:
    assert sorted(TABLE) == sorted(registry_read_keys())


@pytest.mark.parametrize("route", list(ROUTES))
@pytest.mark.parametrize("key", registry_read_keys())
def test_option_on_route_over_connect(connect, data: Path, key: str, route: str) -> None:
    assert key in TABLE, f"{key} is a read option without a row in tests/read_option_table.py TABLE"

    def no_copy() -> Path:
        raise AssertionError("over Connect the cache is observed through metrics, not fresh copies")

    check_cell(Cell(connect, ROUTES[route], data, bp.scan_metrics, no_copy), key, route, Exception)
