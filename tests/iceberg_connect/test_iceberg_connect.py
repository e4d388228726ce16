"""Iceberg reads over Spark Connect with ``spark.bloomparquet.iceberg.enabled``, set by the client:
the server's planning prunes as a classic session's does. Differential against Iceberg alone; what a
scan read is its own metrics (``numSplits``: the splits Iceberg's readers opened)."""

from __future__ import annotations

import pytest

import bloomparquet as bp

from ..iceberg.tables import create_events

pytestmark = pytest.mark.spark


def _run(connect, on: bool, where: str) -> tuple[list, dict[str, int]]:
    connect.conf.set("spark.bloomparquet.iceberg.enabled", str(on).lower())
    df = connect.sql(f"SELECT k, s FROM lake.db.events WHERE {where}")
    got = sorted(map(tuple, df.collect()))
    return got, bp.scan_metrics(df)


def test_a_point_miss_reads_no_split_over_connect(connect) -> None:
    create_events(connect, "lake.db.events")
    for where, n in (("k = 4", 0), ("s = 'u4'", 0), ("k IN (3003, 4)", 1), ("s = 'u3003'", 1)):
        alone, before = _run(connect, False, where)
        got, after = _run(connect, True, where)
        assert got == alone and len(got) == n, where
        assert after.get("numSplits", 0) <= before.get("numSplits", 0), (where, before, after)
        if n == 0:
            assert after.get("numSplits", 0) == 0 < before.get("numSplits", 0), (where, before, after)


def test_retrofit_over_connect(connect) -> None:
    """``bp.retrofit(..., format="iceberg")`` runs the server's ``bloomparquet_retrofit`` function."""
    create_events(connect, "lake.db.plain", filtered=())
    results = bp.retrofit(connect, "lake.db.plain", ["k"], format="iceberg")
    assert {r["status"] for r in results} == {"retrofitted"} and all(r["target"] for r in results)
    assert len({r["version"] for r in results}) == 1
    connect.conf.set("spark.bloomparquet.iceberg.enabled", "true")
    df = connect.sql("SELECT * FROM lake.db.plain WHERE k = 4")
    assert df.collect() == [] and bp.scan_metrics(df).get("numSplits", 0) == 0
