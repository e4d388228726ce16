"""Key-set lookups (the extension's KeySetPruning rule): joins to a small key set and
``WHERE k IN (SELECT ...)`` prune the bloomparquet side with the keys at runtime, where
Spark's own dynamic pruning plans nothing (no selective predicate on the keys). Rows always
equal Spark's ``parquet`` with pushdown off; keys of another type than the column are
probed correctly or not at all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bloomparquet import scan_metrics

from .key_set_fact import COLUMNS, ROWS, lookup_sql, stored_value
from .spark_conf import rows, spark_conf

# A key's type: the column's own, or another one Spark casts one side to.
KEY_TYPES = {
    "i": ["int", "bigint"],
    "l": ["bigint", "decimal(20,0)"],
    "s": ["string", "binary"],
    "d": ["decimal(10,2)", "decimal(12,4)"],
    "dt": ["date", "timestamp"],
}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_key_set_joins_match_spark(spark, oracle, fact: Path, data) -> None:
    column = data.draw(st.sampled_from(sorted(COLUMNS)), label="column")
    key_type = data.draw(st.sampled_from(KEY_TYPES[column]), label="key type")
    ns = data.draw(st.lists(st.integers(0, 2 * ROWS + 50), max_size=40), label="key ids")
    nulls = data.draw(st.integers(0, 2), label="nulls")
    how = data.draw(st.sampled_from(["inner", "left_semi", "in_subquery", "keys_left"]), label="how")
    mode = data.draw(st.sampled_from(["plan", "task"]), label="mode")
    keys_rows = [(stored_value(column, n),) for n in ns] + [(None,)] * nulls
    keys = spark.createDataFrame(keys_rows, f"k {COLUMNS[column]}").selectExpr(f"cast(k as {key_type}) as k")
    keys = keys.coalesce(1).cache()  # a plan with a size estimate, small enough to broadcast

    def query(table):
        if how == "inner":
            return table.join(keys, table[column] == keys["k"])
        if how == "left_semi":
            return table.join(keys, table[column] == keys["k"], "left_semi")
        if how == "keys_left":
            return keys.join(table, table[column] == keys["k"], "inner")
        table.createOrReplaceTempView("ks_fact")
        keys.createOrReplaceTempView("ks_keys")
        return table.sparkSession.sql(f"SELECT * FROM ks_fact WHERE {column} IN (SELECT k FROM ks_keys)")

    ours = query(spark.read.format("bloomparquet").option("bloom.mode", mode).load(str(fact)))
    assert rows(ours) == oracle(fact, query=query)
    keys.unpersist()


def _metrics_of(spark, oracle, fact: Path, keys_sql: str, how: str = "inner") -> tuple[int, dict]:
    keys = spark.sql(keys_sql)
    q = spark.read.format("bloomparquet").load(str(fact)).join(keys, "l", how)
    got = rows(q)
    assert got == oracle(fact, query=lambda t: t.join(keys, "l", how))
    return len(got), scan_metrics(q)


@pytest.fixture
def key_file(spark, tmp_path: Path) -> str:
    """A Parquet file of keys: 3 absent ones, one present (row id 2), a null and a duplicate."""
    path = str(tmp_path / "keys")
    present = stored_value("l", 2)
    spark.createDataFrame([(3,), (5,), (7,), (present,), (None,), (present,)], "l bigint").coalesce(1).write.parquet(
        path
    )
    return path


def test_keys_from_a_file_prune_at_runtime(spark, oracle, fact: Path, key_file: str) -> None:
    n, m = _metrics_of(spark, oracle, fact, f"SELECT * FROM parquet.`{key_file}`")
    assert n == 2  # the present key, twice (a duplicate key joins twice)
    # Every row group but the one holding the key (and false positives at 1 %) is skipped.
    assert m["numOutputRows"] <= 3 * ROWS // 20, m
    n, m = _metrics_of(spark, oracle, fact, f"SELECT * FROM parquet.`{key_file}`", "left_semi")
    assert n == 1 and m["numOutputRows"] <= 3 * ROWS // 20, m


def test_no_filter_over_the_threshold_or_switched_off(spark, oracle, fact: Path, key_file: str) -> None:
    for value in ("1", "0"):
        with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": value}):
            _, m = _metrics_of(spark, oracle, fact, f"SELECT * FROM parquet.`{key_file}`")
            assert m["numOutputRows"] >= ROWS, m  # the whole fact table (and the key file's rows)


def test_empty_and_all_null_key_sets(spark, oracle, fact: Path, tmp_path: Path) -> None:
    for name, key_rows in (("empty", []), ("nulls", [(None,), (None,)])):
        path = str(tmp_path / name)
        spark.createDataFrame(key_rows, "l bigint").coalesce(1).write.parquet(path)
        n, m = _metrics_of(spark, oracle, fact, f"SELECT * FROM parquet.`{path}`")
        # Only the key file's rows (AQE may not even run the fact scan): no row group kept.
        assert n == 0 and m.get("numOutputRows", 0) <= 2, (name, m)


def test_other_key_types_are_not_probed_wrongly(spark, oracle, fact: Path, tmp_path: Path) -> None:
    """int keys against the bigint column: Spark casts the column side, so no runtime filter
    reaches the scan (it would need the column's exact type); rows still equal."""
    path = str(tmp_path / "int-keys")
    spark.createDataFrame([(2,), (3,)], "i int").coalesce(1).write.parquet(path)
    keys = spark.read.parquet(path)
    q = spark.read.format("bloomparquet").load(str(fact)).join(keys, "i")
    assert rows(q) == oracle(fact, query=lambda t: t.join(keys, "i"))


def _optimized(df) -> str:
    """The optimized plan, expression ids left out (each analysis numbers them anew)."""
    return re.sub(r"#\d+", "#", df._jdf.queryExecution().optimizedPlan().toString())


def test_plans_without_bloomparquet_are_untouched(spark, fact: Path, key_file: str) -> None:
    def plans() -> list[str]:
        keys = spark.read.parquet(key_file)
        plain = spark.read.parquet(str(fact))
        plain.createOrReplaceTempView("ks_plain")
        keys.createOrReplaceTempView("ks_keys")
        return [
            _optimized(plain.join(keys, "l")),
            _optimized(plain.join(keys, "l", "left_semi")),
            _optimized(spark.sql("SELECT * FROM ks_plain WHERE l IN (SELECT l FROM ks_keys)")),
        ]

    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": "0"}):
        off = plans()
    assert plans() == off


def test_runtime_filter_costs_are_reported(spark, oracle, fact: Path, key_file: str) -> None:
    _, m = _metrics_of(spark, oracle, fact, f"SELECT * FROM parquet.`{key_file}`")
    assert m["bloomRuntimeFiltersReceived"] >= 1 and m["bloomRuntimeFilterTimeMs"] >= 0, m
    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": "0"}):  # no runtime filter: not reported
        _, m = _metrics_of(spark, oracle, fact, f"SELECT * FROM parquet.`{key_file}`")
    assert m.get("bloomRuntimeFiltersReceived", 0) == 0, m


def _distinct_pruning_filters(tree: str) -> int:
    """Dynamic pruning filters in a plan's text (each shows on its scan and on its subquery)."""
    return len(set(re.findall(r"dynamicpruning#\d+", tree)))


def _pruning_filters(df) -> int:
    return _distinct_pruning_filters(df._jdf.queryExecution().executedPlan().treeString())


@pytest.fixture(scope="module")
def fact_filtered_on_i(spark, tmp_path_factory) -> Path:
    """The fact rows again, a filter on ``i`` only."""
    path = tmp_path_factory.mktemp("keysets-i") / "fact"
    df = (
        spark.range(ROWS)
        .selectExpr("(id * 7919 % 20000) * 2 as n")
        .selectExpr("cast(n as int) as i", "n * 1000003 as l")
    )
    df.coalesce(1).write.format("bloomparquet").option("bloom.columns", "i").option(
        "parquet.block.size", 24 * 1024
    ).save(str(path))
    return path


def test_only_columns_with_filters_get_runtime_filters(spark, oracle, fact_filtered_on_i: Path, key_file: str) -> None:
    """A runtime filter on a column without bloom filters prunes nothing and costs a subquery:
    neither the key-set rule nor Spark's dynamic pruning (a selective key side) plants one."""
    fact = fact_filtered_on_i
    table = spark.read.format("bloomparquet").load(str(fact))
    spark.createDataFrame([(4, 4 * 1_000_003), (5, 5)], "i int, l bigint").coalesce(1).write.mode("overwrite").parquet(
        key_file + "-il"
    )
    keys = spark.read.parquet(key_file + "-il")
    selective = keys.where("i < 5")  # Spark's own dynamic pruning wants a selective predicate
    for other, column, filtered in (
        (keys, "i", True),
        (keys, "l", False),
        (selective, "i", True),
        (selective, "l", False),
    ):
        q = table.join(other.select(column), column)
        assert (_pruning_filters(q) > 0) == filtered, (column, q._jdf.queryExecution().executedPlan().treeString())
        assert rows(q) == oracle(fact, query=lambda t, o=other, c=column: t.join(o.select(c), c)), column


def test_pruning_filters_do_not_nest(spark, oracle, fact: Path, key_file: str) -> None:
    """The keys of a pruning filter hold a bloomparquet scan joined to keys themselves: that
    scan's own filter is planned once, not again inside the subquery (at most one per scan)."""
    keys = spark.read.parquet(key_file)
    inner = spark.read.format("bloomparquet").load(str(fact)).join(keys, "l").select("l")
    q = spark.read.format("bloomparquet").load(str(fact)).join(inner, "l")
    tree = q._jdf.queryExecution().executedPlan().treeString()
    assert 1 <= _distinct_pruning_filters(tree) <= tree.count("BatchScan"), tree
    assert rows(q) == oracle(fact, query=lambda t: t.join(t.join(keys, "l").select("l"), "l"))


@pytest.mark.parametrize("route", ["table", "sql_path", "view", "parquet_opted_in"])
@pytest.mark.parametrize("how", ["inner", "left_semi", "in_subquery"])
def test_key_sets_prune_every_route(spark, oracle, fact: Path, key_file: str, route: str, how: str) -> None:
    """A join to a key set prunes the fact at runtime whichever way the query names it: a catalog
    table (USING bloomparquet), SQL on the path, a temp view, and plain ``parquet`` opted in
    (``spark.bloomparquet.parquet.enabled``); rows equal Spark's with pushdown off."""
    name = f"ks_route_{route}"
    conf = {"spark.bloomparquet.parquet.enabled": "true"} if route == "parquet_opted_in" else {}
    with spark_conf(spark, conf):
        if route == "table":
            spark.sql(f"DROP TABLE IF EXISTS {name}")
            spark.sql(f"CREATE TABLE {name} USING bloomparquet LOCATION '{fact}'")
            source = name
        elif route == "sql_path":
            source = f"bloomparquet.`{fact}`"
        elif route == "view":
            spark.read.format("bloomparquet").load(str(fact)).createOrReplaceTempView(name)
            source = name
        else:
            source = f"parquet.`{fact}`"
        sql = lookup_sql(source, key_file, how)
        q = spark.sql(sql)
        got = rows(q)
        m = scan_metrics(q)
        if route == "table":
            spark.sql(f"DROP TABLE {name}")
        if route == "view":
            spark.catalog.dropTempView(name)
    key_rows = spark.read.parquet(key_file)
    expected = {
        "inner": lambda t: t.join(key_rows, "l").select(*t.columns),
        "left_semi": lambda t: t.join(key_rows, "l", "left_semi").select(*t.columns),
        "in_subquery": lambda t: t.join(key_rows, "l", "left_semi").select(*t.columns),
    }[how]
    assert got == oracle(fact, query=expected), (route, how)
    # Every row group but the one holding the key (and false positives at 1 %) is skipped.
    assert m.get("bloomRuntimeFiltersReceived", 0) >= 1 and m["numOutputRows"] <= 3 * ROWS // 20, (route, how, m)


def test_pruning_in_a_side_adaptive_execution_drops_still_counts(spark, oracle, fact: Path, tmp_path: Path) -> None:
    """Absent keys, cached, on a right outer join's right: the fact table is the side Spark
    broadcasts, pruned to nothing, and adaptive execution then drops that side from its final
    plan. What its pruning did still counts in the bloom counters."""
    path = str(tmp_path / "absent")
    spark.createDataFrame([(3,), (5,), (7,)], "l bigint").coalesce(1).write.parquet(path)
    keys = spark.read.parquet(path).cache()
    query = lambda t: t.join(keys, "l", "right_outer")  # noqa: E731
    with spark_conf(spark, {"spark.sql.autoBroadcastJoinThreshold": str(64 << 20)}):
        q = query(spark.read.format("bloomparquet").load(str(fact)))
        got = rows(q)
        assert got == oracle(fact, query=query) and len(got) == 3
        m = scan_metrics(q)
    executed = q._jdf.queryExecution().executedPlan().toString()
    assert "BatchScan" not in executed.split("Initial Plan")[0], executed  # dropped from the final plan
    by = ("Bloom", "Stats", "Dictionary")
    assert (
        m["bloomRowGroupsTotal"] > 0 and sum(m[f"bloomRowGroupsPrunedBy{b}"] for b in by) == m["bloomRowGroupsTotal"]
    ), m
    keys.unpersist()
