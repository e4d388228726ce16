"""Every read option of the registry x every classic route to bloomparquet (DataFrame in plan and
task mode, a catalog table on the V2 and the V1 route, SQL on a path (``WITH`` options), plain ``parquet``
opted in): the option has its effect there, or the table says why the route can't show one and
the rows and rows read are the same for every value; a bad value fails naming the option. The
table is tests/read_option_table.py; the Connect column is tests/connect/test_read_option_routes.py."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

import bloomparquet as bp

from .read_option_table import (
    SESSION_READ,
    TABLE,
    Cell,
    Route,
    check_cell,
    registry_deprecated_read_keys,
    registry_read_keys,
    route_readers,
    write_data,
)
from .routes import PARQUET_OPT_IN, V1_ROUTE

pytestmark = pytest.mark.spark

_READ = route_readers("read_option_routes_")


ROUTES = {
    "dataframe_plan": Route(_READ["dataframe_plan"], {}),
    "dataframe_task": Route(_READ["dataframe_task"], {}),
    "dataframe_session": Route(_READ["dataframe_plan"], {}, session=True),
    "sql_table": Route(_READ["sql_table"], {}),
    "sql_table_v1": Route(_READ["sql_table"], V1_ROUTE),
    "sql_path": Route(_READ["sql_path"], {}),
    "parquet_opt_in": Route(_READ["parquet"], PARQUET_OPT_IN),
}


@pytest.fixture(scope="module")
def data(spark, tmp_path_factory) -> Path:
    return write_data(spark, tmp_path_factory.mktemp("read_option_routes") / "data")


@pytest.fixture(scope="module")
def slow(spark):
    fs = spark._jvm.io.bloomparquet.testing.SlowFileSystem
    conf = spark._jsc.hadoopConfiguration()
    for k, v in fs.settings().items():
        conf.set(k, v)
    fs.setLatencyMs(0, 0)
    return fs


@pytest.fixture(scope="module", autouse=True)
def _drop_tables(spark):
    yield
    for t in spark.catalog.listTables():
        if t.name.startswith("read_option_routes_"):
            spark.sql(f"DROP TABLE {t.name}")


def test_every_registry_read_option_has_a_row() -> None:
    assert sorted(TABLE) == sorted(registry_read_keys())


@pytest.mark.parametrize("key", registry_deprecated_read_keys())
def test_a_deprecated_read_key_has_no_session_form(spark, key: str) -> None:
    warned = spark._jvm.io.bloomparquet.options.UnknownSettings.of(
        spark._jvm.scala.jdk.javaapi.CollectionConverters.asScala([SESSION_READ + key.removeprefix("bloom.")])
    )
    assert warned.size() == 1 and "did you mean" in warned.head(), warned


@pytest.mark.parametrize(
    ("key", "route"),
    [
        (k, r)
        for k in registry_read_keys()
        for r in ROUTES
        if not (ROUTES[r].session and k in registry_deprecated_read_keys())
    ],
)
def test_option_on_route(spark, data: Path, slow, tmp_path: Path, key: str, route: str) -> None:
    assert key in TABLE, f"{key} is a read option without a row in tests/read_option_table.py TABLE"
    copies = itertools.count()

    def copy() -> Path:
        fresh = tmp_path / f"copy{next(copies)}"
        shutil.copytree(data, fresh)
        return fresh

    cache = spark._jvm.io.bloomparquet.planning.FileBloomIndexCache
    cell = Cell(spark, ROUTES[route], data, bp.scan_metrics, copy, slow=slow, held=lambda: cache.held()._1())
    check_cell(cell, key, route, Exception)
