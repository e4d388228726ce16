"""bloomparquet over Spark Connect and Hadoop's S3A client: a table written by our writer straight
to the local S3 server through Connect, then read by every route a Connect client has (DataFrame in
plan and task mode, SQL on the path, a catalog table, a temp view), differential against Spark's
``parquet`` with pushdown off through the same server."""

from __future__ import annotations

import uuid

import pytest

import bloomparquet as bp

from ..spark_conf import PUSHDOWN_OFF, rows, spark_conf
from .conftest import BUCKET

ROWS, FILES = 20_000, 8
WHERES = ["k = 20002", "k = 20003", "k IN (2, 4002, 39998, 5)", "k IN (1, 3, 7)", "k >= 39990 AND tag = 't3'"]


@pytest.fixture(scope="module")
def table(connect) -> str:
    """FILES files of even keys dealt round-robin (each file spans them all: statistics prune
    nothing), filters on k, on S3."""
    path = f"s3a://{BUCKET}/{uuid.uuid4().hex}"
    df = connect.range(ROWS).selectExpr("id * 2 AS k", "concat('t', CAST(id % 7 AS STRING)) AS tag")
    df.repartition(FILES).write.format("bloomparquet").option("bloom.columns", "k").save(path)
    return path


def _theirs(connect, path: str, where: str) -> list[tuple]:
    with spark_conf(connect, PUSHDOWN_OFF):
        return rows(connect.read.parquet(path).where(where))


@pytest.mark.parametrize("route", ["plan", "task", "sql", "table", "view"])
def test_every_connect_route_equals_parquet_over_s3a(connect, table: str, route: str) -> None:
    name = f"t_{route}"
    if route == "table":
        connect.sql(f"DROP TABLE IF EXISTS {name}")
        connect.sql(f"CREATE TABLE {name} USING bloomparquet LOCATION '{table}'")
    if route == "view":
        bp.read_bloom(connect, table).createOrReplaceTempView(name)
    for where in WHERES:
        if route in ("plan", "task"):
            df = bp.read_bloom(connect, table, **{"bloom.mode": route}).where(where)
        elif route == "sql":
            df = connect.sql(f"SELECT * FROM bloomparquet.`{table}` WHERE {where}")
        else:
            df = connect.sql(f"SELECT * FROM {name} WHERE {where}")
        assert rows(df) == _theirs(connect, table, where), (route, where)
    if route == "table":
        connect.sql(f"DROP TABLE {name}")
    if route == "view":
        connect.catalog.dropTempView(name)


def test_a_point_miss_prunes_on_the_driver_over_s3a(connect, table: str) -> None:
    """Cold, every footer is read from S3 and every file pruned before any task; warm, nothing is read."""
    for cache, read in (("false", True), ("true", False), ("true", False)):
        df = bp.read_bloom(connect, table, **{"bloom.cache": cache}).where("k = 20003")
        assert df.collect() == []
        m = bp.scan_metrics(df)
        assert m["bloomFilesTotal"] == FILES and m["bloomFilesPruned"] >= FILES - 1, m
        assert m["bloomFilesPlannedOnExecutors"] == 0, m
        assert (m["bloomFootersRead"] == FILES and m["bloomPlanningBytesRead"] > 0) == read, (cache, m)
        assert read or (m["bloomFootersRead"] == 0 and m["bloomPlanningBytesRead"] == 0), (cache, m)
