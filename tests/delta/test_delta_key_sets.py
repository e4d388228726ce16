"""Key sets Spark computes while a query runs prune Delta scans: a join whose other side is a table
(not held in the driver) and ``k IN (subquery)`` give the Delta scan Spark's dynamic pruning filter
on ``k``; the scan's index prunes again with the keys when it lists its files. Every query
differential against Delta's own reader with the conf off and Spark's Parquet pushdown off."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..spark_conf import spark_conf
from .tables import FILES, ON, absent_key, keys_frame, same_rows, write_delta

pytestmark = pytest.mark.spark

# Adaptive execution off where a test reads Spark's own scan figures: a join side that read nothing
# leaves the adaptive final plan with them (its bloom counts still count: scan_metrics).
NOT_ADAPTIVE = {"spark.sql.adaptive.enabled": "false"}


@pytest.fixture(scope="module")
def table(spark, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("delta_keys") / "keys"
    write_delta(spark, keys_frame(spark), path, **{"delta.enableDeletionVectors": "true"})
    return path


@pytest.fixture(scope="module")
def present(spark, table: Path) -> list[int]:
    return [r.k for r in spark.read.format("delta").load(str(table)).where("g = 3").limit(3).collect()]


def keys_table(spark, tmp_path: Path, keys: list[int], name: str) -> Path:
    """The keys as a Parquet table of Spark's (the planner does not hold its rows)."""
    path = tmp_path / name
    spark.createDataFrame([(k, f"tag{k}") for k in keys], "k BIGINT, tag STRING").coalesce(1).write.mode(
        "overwrite"
    ).parquet(str(path))
    return path


def delta_scan(metrics: dict[str, int]) -> tuple[int, int]:
    return metrics["bloomFilesTotal"], metrics["bloomFilesPruned"]


JOINS: dict[str, Callable[[Any, Any], Any]] = {
    "inner": lambda t, ks: t.join(ks, "k"),
    "left_semi": lambda t, ks: t.join(ks, "k", "left_semi"),
    "cached_keys_right_outer": lambda t, ks: t.join(ks.cache(), "k", "right_outer"),
    "cached_keys_left_outer": lambda t, ks: ks.cache().join(t, "k", "left_outer"),
}


@pytest.mark.parametrize("how", [pytest.param(h, marks=pytest.mark.core) if h == "inner" else h for h in JOINS])
def test_joins_with_a_table_of_keys_prune_files(spark, table: Path, present: list[int], how: str, tmp_path) -> None:
    """The keys are computed once: reusing the join's broadcast, or read again where that is cheap
    (Spark's cache; a left outer join broadcasts the Delta side, not the keys)."""
    miss = absent_key(table)
    misses = keys_table(spark, tmp_path, [miss, miss + 2 * 10**9 + 2], "misses")
    hits = keys_table(spark, tmp_path, [present[0], miss], "hits")

    def query(keys: Path) -> Any:
        return JOINS[how](spark.read.format("delta").load(str(table)), spark.read.parquet(str(keys)))

    for adaptive in ({}, NOT_ADAPTIVE):  # adaptive, as by default, and not: the same pruning, the same figures
        with spark_conf(spark, adaptive):
            got, m = same_rows(spark, lambda: query(misses))
            total, pruned = delta_scan(m)
            assert total == FILES and pruned >= FILES - 1, (adaptive, m)
            got, m = same_rows(spark, lambda: query(hits))
            total, pruned = delta_scan(m)
            assert total == FILES and 1 <= total - pruned <= 3, (adaptive, m)
        assert any(present[0] in r for r in got)


def test_keys_at_runtime_prune_again_only_the_files_planning_kept(spark, tmp_path) -> None:
    """A scan pruned while planning (``email IN (...)``) prunes again with a join's keys on ``k`` when it
    lists its files, reading only the files planning kept. A fresh table whose ``email`` filters a first
    query read: the join then reads the ``k`` filter (in blocks) of each file it prunes again, and of no
    other. The counts stay the table's."""
    path = tmp_path / "again"
    write_delta(spark, keys_frame(spark), path)
    present = spark.read.format("delta").load(str(path)).where("g = 3").limit(3).collect()
    keys = keys_table(spark, tmp_path, [present[0].k, absent_key(path)], "again_keys")

    def planned() -> Any:
        emails = ", ".join(f"'{r.email}'" for r in present)
        return spark.read.format("delta").load(str(path)).where(f"email IN ({emails})")

    with spark_conf(spark, NOT_ADAPTIVE):
        _, at_planning = same_rows(spark, planned)
        got, m = same_rows(spark, lambda: planned().join(spark.read.parquet(str(keys)), "k"))
    kept = at_planning["bloomFilesTotal"] - at_planning["bloomFilesPruned"]
    assert [r[0] for r in got] == [present[0].k]
    assert 1 <= kept < FILES, at_planning
    assert m["bloomFilesTotal"] == FILES and 1 <= FILES - m["bloomFilesPruned"] <= kept, m
    # Pruning every file of the table again would read the k filter of each (FILES of them).
    assert m["bloomFiltersReadInBlocks"] == kept, (m, at_planning)


def test_keys_neither_broadcast_nor_cached_are_not_read_twice(spark, table: Path, tmp_path) -> None:
    """A left outer join broadcasts the Delta side: its keys would be read a second time for a filter
    that may prune nothing, so Spark drops it, and the rows are Delta's."""
    keys = keys_table(spark, tmp_path, [absent_key(table)], "outer")
    with spark_conf(spark, NOT_ADAPTIVE):
        _, m = same_rows(
            spark,
            lambda: spark.read.parquet(str(keys)).join(spark.read.format("delta").load(str(table)), "k", "left_outer"),
        )
    assert delta_scan(m) == (FILES, 0), m


@pytest.mark.core
def test_in_subquery_prunes_files(spark, table: Path, present: list[int], tmp_path) -> None:
    miss = absent_key(table)
    spark.read.parquet(str(keys_table(spark, tmp_path, [miss, present[1]], "sub"))).createOrReplaceTempView("sub_keys")
    spark.read.format("delta").load(str(table)).createOrReplaceTempView("delta_keys")
    query = "SELECT k, email FROM delta_keys WHERE k IN (SELECT k FROM sub_keys) AND g >= 0"
    with spark_conf(spark, NOT_ADAPTIVE):
        got, m = same_rows(spark, lambda: spark.sql(query))
        with spark_conf(spark, ON):
            plan = spark.sql(query)._jdf.queryExecution().executedPlan().toString()
    assert [r[0] for r in got] == [present[1]]
    total, pruned = delta_scan(m)
    assert total == FILES and 1 <= total - pruned <= 3, m
    assert "BloomPrunedDeltaIndex" in plan and "bloom keys of k" in plan, plan
    got, _ = same_rows(
        spark, lambda: spark.sql(f"SELECT k FROM delta.`{table}` WHERE k NOT IN (SELECT k FROM sub_keys)")
    )


def test_deleted_rows_stay_deleted(spark, tmp_path: Path) -> None:
    path = tmp_path / "dv"
    write_delta(spark, keys_frame(spark, 30_000, 4), path, **{"delta.enableDeletionVectors": "true"})
    some = [r.k for r in spark.read.format("delta").load(str(path)).where("g = 2").limit(4).collect()]
    spark.sql(f"DELETE FROM delta.`{path}` WHERE k IN ({some[0]}, {some[1]})")
    keys = spark.read.parquet(str(keys_table(spark, tmp_path, some, "dv_keys")))
    with spark_conf(spark, NOT_ADAPTIVE):
        got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).join(keys, "k"))
    assert sorted(r[0] for r in got) == sorted(some[2:])
    assert m["bloomFilesTotal"] == 4, m


def test_left_alone_where_keys_cannot_prune(spark, table: Path, tmp_path) -> None:
    """No dynamic filter on a column without filters, on keys bigger than the key-set bound, or
    with dynamic pruning off: rows are Delta's either way."""
    keys = keys_table(spark, tmp_path, [1, 2, 3], "g_keys")
    t = spark.read.format("delta").load(str(table))
    cases = [
        ({}, lambda: t.join(spark.read.parquet(str(keys)).selectExpr("cast(k AS int) AS g"), "g")),
        ({"spark.bloomparquet.keySet.maxBytes": "16"}, lambda: t.join(spark.read.parquet(str(keys)), "k")),
        (
            {"spark.sql.optimizer.dynamicPartitionPruning.enabled": "false"},
            lambda: t.join(spark.read.parquet(str(keys)), "k"),
        ),
    ]
    for confs, query in cases:
        with spark_conf(spark, {**NOT_ADAPTIVE, **confs}):
            same_rows(spark, query)
            with spark_conf(spark, ON):
                plan = query()._jdf.queryExecution().executedPlan().toString()
        assert "bloom keys of" not in plan, (confs, plan)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(picks=st.lists(st.integers(0, 2), max_size=4), misses=st.integers(0, 3))
def test_any_table_of_keys_matches_delta(
    spark, table: Path, present: list[int], tmp_path_factory, picks, misses
) -> None:
    miss = absent_key(table)
    keys = sorted({present[i] for i in picks} | {miss + 2 * i for i in range(misses)})
    path = keys_table(spark, tmp_path_factory.mktemp("any"), keys, "keys")
    got, _ = same_rows(
        spark, lambda: spark.read.format("delta").load(str(table)).join(spark.read.parquet(str(path)), "k")
    )
    assert sorted(r[0] for r in got) == sorted(k for k in keys if k in present)


def test_no_filter_for_a_key_in_every_file(spark, tmp_path: Path) -> None:
    """A foreign key spread over every file (each holds all 300 of its values): a key is present in
    every row group, so no filter could prune and none is planned; rows are Delta's."""
    path = tmp_path / "spread"
    df = spark.range(24_000).selectExpr("id % 300 AS k", "id AS v").repartition(4)
    write_delta(spark, df, path)
    keys = spark.read.parquet(str(keys_table(spark, tmp_path, [3, 7], "spread_keys")))
    with spark_conf(spark, NOT_ADAPTIVE):
        same_rows(spark, lambda: spark.read.format("delta").load(str(path)).join(keys, "k"))
        with spark_conf(spark, ON):
            plan = spark.read.format("delta").load(str(path)).join(keys, "k")._jdf.queryExecution().executedPlan()
    assert "bloom keys of" not in plan.toString(), plan.toString()
