"""TPC-DS plans with bloom filters on the fact tables' keys (the ``bloomparquet`` route of
bench/tpcds.py): there Spark's dynamic pruning may plan a pruning subquery for every declared
runtime-filter column, and a subquery's plan copied into another's would carry its own. A scan in
a subquery's own plan declares none (``sql.SubqueryScans``), so pruning subqueries never nest:
q14a had 273 pruning filters and 4.6x Spark's plan nodes.

Plans only (``executedPlan``, nothing runs), over tiny tables of the TPC-DS schema.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bloomparquet as bp
from tests.spark_conf import rows
from tests.test_tpcds_plans import measure, nodes, pruning_filters
from tests.tpcds_queries import queries, write_tiny_tables
from tests.tpcds_schema import FACT_KEYS

pytestmark = [pytest.mark.spark, pytest.mark.long]

PARQUET = {"spark.bloomparquet.parquet.enabled": "false"}
IN_SUBQUERY = "RuntimeFilters: none: in a subquery's plan"


@pytest.fixture(scope="module")
def bloom_views(spark, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The queries; views of every table, the fact tables rewritten by our writer with filters on their keys."""
    root = Path(tmp_path_factory.mktemp("tpcds-bloom"))
    for table, path in write_tiny_tables(root / "plain").items():
        if table in FACT_KEYS:
            bp.write_bloom(spark.read.parquet(str(path)), str(root / table), FACT_KEYS[table])
            path = root / table
        spark.read.format("bloomparquet").load(str(path)).createOrReplaceTempView(table)
    return queries()


_PRUNING_SUBQUERY = re.compile(r"\bSubquery(?:Adaptive)?Broadcast dynamicpruning#")


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" :+-"))


def nesting(tree: str) -> int:
    """How deep pruning subqueries nest in ``tree``: 0 without any, 1 where none holds another in its
    plan (the subtree under its ``SubqueryAdaptiveBroadcast`` line), 2 where one does, and so on."""
    deepest, open_at = 0, []  # the indentation of the pruning subqueries enclosing the current line
    for line in tree.splitlines():
        while open_at and _depth(line) <= open_at[-1]:
            open_at.pop()
        if _PRUNING_SUBQUERY.search(line):
            open_at.append(_depth(line))
            deepest = max(deepest, len(open_at))
    return deepest


def test_pruning_subqueries_nest_only_along_the_query_joins(spark, bloom_views: dict[str, str]) -> None:
    found = {}
    for name, text in bloom_views.items():
        _, tree = measure(spark, text, PARQUET)
        found[name] = (nesting(tree), pruning_filters(tree), nodes(tree))
    print({n: f for n, f in found.items() if f[0] > 1})
    assert sum(f[1] for f in found.values()) > 100  # the route plans runtime filters at all
    assert max(f[0] for f in found.values()) <= 2, {n: f for n, f in found.items() if f[0] > 2}


def test_q14a_plans_runtime_filters_on_its_own_scans_only(spark, bloom_views: dict[str, str]) -> None:
    _, tree = measure(spark, bloom_views["q14a"], PARQUET)
    # cross_items' and avg_sales' fact scans (subqueries) say why they take none...
    assert IN_SUBQUERY in tree
    # ...the query's own fact scans still take them (date and item keys): 60 filters, not 273.
    assert 0 < pruning_filters(tree) <= 60, pruning_filters(tree)


def test_in_subquery_results_are_spark_parquet_results(spark, write_bloom_dir, oracle) -> None:
    """The scans of an IN subquery lose no row: the subquery's fact scan takes no runtime filter, the
    outer one does (the keys the subquery returns)."""
    fact = spark.range(0, 20_000).selectExpr("id AS k", "id % 50 AS d", "cast(id * 7 AS string) AS v")
    path = write_bloom_dir(fact, ["k", "d"], "in-subquery-fact", 64 * 1024)
    spark.range(0, 50).selectExpr("id AS d", "IF(id = 3, 'x', 'y') AS name").createOrReplaceTempView("in_subquery_dim")
    spark.read.format("bloomparquet").load(str(path)).createOrReplaceTempView("in_subquery_fact")
    keys = "SELECT f2.k + 1 FROM in_subquery_fact f2 JOIN in_subquery_dim m ON f2.d = m.d WHERE m.name = 'x'"
    df = spark.sql(f"SELECT * FROM in_subquery_fact WHERE k IN ({keys})")
    tree = df._jdf.queryExecution().executedPlan().treeString()
    assert IN_SUBQUERY in tree
    expected = oracle(
        path,
        query=lambda f: f.join(
            f.alias("f2").join(spark.table("in_subquery_dim").where("name = 'x'"), "d").selectExpr("k + 1 AS k"),
            "k",
            "left_semi",
        ),
    )
    assert len(expected) == 400
    assert rows(df) == expected
