"""Key-set filters that cannot pay are not planned. A row group holding none of n keys survives
a filter of false-positive rate p with probability 1-(1-p)^n: past a few hundred keys at 1 %,
no filter prunes, and a runtime filter still costs a subquery, a scan that waits for it and a
larger plan. Judged before the keys run, from their estimated count and a sample of the
files' filters and statistics; for the key-set rule's filters and Spark's own dynamic pruning
alike. Rows always equal Spark's ``parquet`` with pushdown off."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bloomparquet import scan_metrics

from .key_set_fact import ROWS, lookup_sql, stored_value
from .spark_conf import rows, spark_conf

MANY = 20_000  # keys: far past what a 1 % filter prunes (0.99^458 < 0.01)


def _pruning_filters(df) -> int:
    """Distinct dynamic pruning filters in the executed plan (each shows on its scan and its subquery)."""
    return len(set(re.findall(r"dynamicpruning#\d+", df._jdf.queryExecution().executedPlan().treeString())))


def _keys(spark, path: Path, values: list[int]) -> str:
    spark.createDataFrame([(v,) for v in values], "l bigint").coalesce(1).write.parquet(str(path))
    return str(path)


@pytest.fixture(scope="module")
def few_and_many(spark, tmp_path_factory) -> tuple[str, str]:
    """Key files: 3 keys (one present), and MANY keys (every other one present)."""
    base = tmp_path_factory.mktemp("payoff-keys")
    few = _keys(spark, base / "few", [3, 5, stored_value("l", 2)])
    many = _keys(spark, base / "many", [stored_value("l", n) if n % 2 == 0 else n * 7 + 1 for n in range(MANY)])
    return few, many


@pytest.mark.parametrize("how", ["inner", "left_semi", "in_subquery"])
@pytest.mark.parametrize("route", ["format", "parquet_opted_in"])
def test_key_set_rule_plants_only_filters_that_can_pay(spark, oracle, fact: Path, few_and_many, how, route) -> None:
    source = f"bloomparquet.`{fact}`" if route == "format" else f"parquet.`{fact}`"
    conf = {"spark.bloomparquet.parquet.enabled": "true"} if route == "parquet_opted_in" else {}
    for key_file, planted in zip(few_and_many, (True, False)):
        sql = lookup_sql(source, key_file, how)
        with spark_conf(spark, conf):
            q = spark.sql(sql)
            assert (_pruning_filters(q) > 0) == planted, (key_file, q._jdf.queryExecution().executedPlan().treeString())
            got = rows(q)
            m = scan_metrics(q)
        key_rows = spark.read.parquet(key_file)
        assert got == oracle(fact, query=lambda t, k=key_rows: t.join(k, "l", "left_semi").select(*t.columns)), how
        if planted:
            assert m["numOutputRows"] <= 3 * ROWS // 20, m
        else:
            # The fact read whole, as Spark's own scan reads it, and the key file.
            assert m.get("bloomRuntimeFiltersReceived", 0) == 0 and m["numOutputRows"] == ROWS + MANY, m


def test_spark_dynamic_pruning_is_dropped_where_it_cannot_pay(spark, oracle, fact: Path, tmp_path: Path) -> None:
    """A selective predicate on the other side makes Spark plan its own pruning filter on every
    column the scan declares; one whose side is estimated at thousands of keys is not planned."""
    for n, planted in ((4, True), (MANY, False)):
        path = str(tmp_path / f"dim-{n}")
        spark.range(n).selectExpr("id * 2 * 1000003 as l", "cast(id % 3 as int) as tag").coalesce(1).write.parquet(path)
        dim = spark.read.parquet(path).where("tag = 1")
        q = spark.read.format("bloomparquet").load(str(fact)).join(dim, "l")
        assert (_pruning_filters(q) > 0) == planted, (n, q._jdf.queryExecution().executedPlan().treeString())
        assert rows(q) == oracle(fact, query=lambda t, d=dim: t.join(d, "l")), n


def test_sorted_files_keep_the_filter_whatever_the_keys(spark, oracle, tmp_path: Path) -> None:
    """Row groups covering narrow slices of the key (sorted files): statistics prune however many
    keys there are, so the filter stays and row groups are cut."""
    fact = str(tmp_path / "sorted")
    spark.range(ROWS).selectExpr("id * 1000003 as l").coalesce(1).sortWithinPartitions("l").write.format(
        "bloomparquet"
    ).option("bloom.columns", "l").option("parquet.block.size", 24 * 1024).save(fact)
    keys = _keys(spark, tmp_path / "low", [(n % 1000) * 1000003 for n in range(MANY)])  # all in the first rows
    q = spark.read.format("bloomparquet").load(fact).join(spark.read.parquet(keys).distinct(), "l")
    assert _pruning_filters(q) > 0, q._jdf.queryExecution().executedPlan().treeString()
    assert rows(q) == oracle(fact, query=lambda t: t.join(spark.read.parquet(keys).distinct(), "l"))
    m = scan_metrics(q)
    assert m["numOutputRows"] - MANY < ROWS // 2, m  # the key file's rows, and the first row groups of the fact


def test_a_key_in_every_row_group_plants_no_filter_whatever_the_count(
    spark, oracle, fact: Path, tmp_path: Path
) -> None:
    """A foreign key spread over every row group (each holds nearly all of its 500 values): a key
    is present in every row group, so no filter prunes even for one key. Where the keys' count is
    unknown (an RDD of rows a job builds) it is judged as one key: the spread file plants nothing,
    the shuffled one, whose row groups hold few of its values, still gets its filter."""
    spread = str(tmp_path / "spread")
    spark.range(ROWS).selectExpr("id % 500 as l", "id as v").coalesce(1).write.format("bloomparquet").option(
        "bloom.columns", "l"
    ).option("parquet.block.size", 24 * 1024).save(spread)
    two = spark.read.parquet(_keys(spark, tmp_path / "two", [3, 7]))
    # Not driver-held: the rows come out of a job, so Spark's size is its "unknown".
    unknown = spark.range(2).selectExpr(f"if(id = 0, 3, {stored_value('l', 2)}) as l").rdd.toDF()
    for path, keys, planted in ((spread, two, False), (spread, unknown, False), (str(fact), unknown, True)):
        q = spark.read.format("bloomparquet").load(path).join(keys, "l", "left_semi")
        assert (_pruning_filters(q) > 0) == planted, (path, q._jdf.queryExecution().executedPlan().treeString())
        assert rows(q) == oracle(Path(path), query=lambda t, k=keys: t.join(k, "l", "left_semi")), path
