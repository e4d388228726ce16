"""The Connect column of the read options x routes table (tests/read_option_table.py): every read
option of the registry through a DataFrame (plan and task mode), SQL on a path (``WITH`` options),
a catalog table and plain ``parquet`` opted in, over Spark Connect, observed through the
execution's own metrics."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

import bloomparquet as bp

from ..read_option_table import TABLE, Cell, Route, check_cell, registry_read_keys, route_readers, write_data
from ..routes import PARQUET_OPT_IN
from ..spark_conf import SPARK3

_READ = route_readers("connect_read_option_routes_")

# An option's effect is read from the execution's metrics (DataFrame.executionInfo, Spark 4.0+), and SQL
# on a path takes options by WITH (Spark 4.0+): on a Spark 3.5 Connect client neither exists. There the
# classic table (tests/test_read_option_routes.py) and the Connect suite's rejection test stand.
pytestmark = pytest.mark.skipif(SPARK3, reason="Spark 3.5 Connect: no executionInfo, no WITH options")


ROUTES = {
    "connect_dataframe_plan": Route(_READ["dataframe_plan"], {}),
    "connect_dataframe_task": Route(_READ["dataframe_task"], {}),
    "connect_sql_table": Route(_READ["sql_table"], {}),
    "connect_sql_path": Route(_READ["sql_path"], {}),
    "connect_parquet_opt_in": Route(_READ["parquet"], PARQUET_OPT_IN),
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
def test_option_on_route_over_connect(connect, data: Path, tmp_path: Path, key: str, route: str) -> None:
    assert key in TABLE, f"{key} is a read option without a row in tests/read_option_table.py TABLE"
    copies = itertools.count()

    def copy() -> Path:
        # The local server reads the client's files: a fresh copy (the digest's observation builds one there).
        fresh = tmp_path / f"copy{next(copies)}"
        shutil.copytree(data, fresh)
        return fresh

    check_cell(Cell(connect, ROUTES[route], data, bp.scan_metrics, copy), key, route, Exception)
