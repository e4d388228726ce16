"""Every TPC-DS query plans through opted-in plain Parquet (``spark.bloomparquet.parquet.enabled``)
about as big and as fast as through Spark's own Parquet scan, over files without bloom filters
(runtime-filter columns declared on every data column would make q14's plan 136x bigger).

Plans only (``executedPlan``, nothing runs), over tiny tables of the TPC-DS schema.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.spark_conf import spark_conf
from tests.tpcds_queries import queries, write_tiny_tables

pytestmark = [pytest.mark.spark, pytest.mark.long]

OPT_IN = {"spark.bloomparquet.parquet.enabled": "true"}
SPARK = {"spark.bloomparquet.parquet.enabled": "false"}
BOUND = 1.5
# Planning a query takes tens of milliseconds here: a time ratio needs a floor under the noise
# of a shared 2-core machine, so a query is over the bound only when also this much slower.
NOISE_SECONDS = 0.25


def plan(spark, text: str) -> tuple[float, str]:
    """(seconds to analyze, optimize and plan ``text``, its physical plan with subqueries)."""
    started = time.perf_counter()
    executed = spark.sql(text)._jdf.queryExecution().executedPlan()
    seconds = time.perf_counter() - started
    return seconds, executed.treeString()


def nodes(tree: str) -> int:
    return sum(1 for line in tree.splitlines() if line.strip())


def scans(tree: str) -> int:
    return len(re.findall(r"\b(?:FileScan|BatchScan)\b", tree))


def ours_scans(tree: str) -> int:
    """Scans through bloomparquet: its V2 scan, or Spark's V1 scan reading through its file format."""
    return len(re.findall(r"\bBatchScan\b", tree)) + len(re.findall(r"\bFileScan bloomparquet\b", tree))


def pruning_filters(tree: str) -> int:
    """Distinct dynamic pruning filters (each shows on its scan and on its subquery)."""
    return len(set(re.findall(r"dynamicpruning#\d+", tree)))


@pytest.fixture(scope="module")
def tpcds_views(spark, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    for table, path in write_tiny_tables(Path(tmp_path_factory.mktemp("tpcds"))).items():
        spark.read.parquet(str(path)).createOrReplaceTempView(table)
    return queries()


def measure(spark, text: str, settings: dict[str, str]) -> tuple[float, str]:
    with spark_conf(spark, settings):
        return plan(spark, text)


def test_every_query_plans_within_bound_of_spark(spark, tpcds_views: dict[str, str]) -> None:
    assert len(tpcds_views) >= 100, sorted(tpcds_views)
    # Warm-up: the first plans of a session pay for class loading and JIT.
    for settings in (SPARK, OPT_IN):
        measure(spark, tpcds_views["q1"], settings)
    rows, over = [], []
    total_spark = total_ours = 0.0
    for name, text in tpcds_views.items():
        t_spark, p_spark = measure(spark, text, SPARK)
        t_ours, p_ours = measure(spark, text, OPT_IN)
        # The routes are the ones meant: every scan of the opt-in is ours (V2, or V1 where nothing could prune).
        assert "BatchScan" not in p_spark and scans(p_ours) == ours_scans(p_ours), name
        if t_ours > BOUND * t_spark + NOISE_SECONDS:  # noisy: the best of two more of each
            t_spark = min(t_spark, *(measure(spark, text, SPARK)[0] for _ in range(2)))
            t_ours = min(t_ours, *(measure(spark, text, OPT_IN)[0] for _ in range(2)))
        total_spark += t_spark
        total_ours += t_ours
        row = (
            name,
            nodes(p_spark),
            nodes(p_ours),
            scans(p_spark),
            scans(p_ours),
            pruning_filters(p_spark),
            pruning_filters(p_ours),
            t_spark,
            t_ours,
        )
        rows.append(row)
        print(*row[:7], f"{t_spark:.3f} {t_ours:.3f}", flush=True)  # progress, with -s
        if (
            nodes(p_ours) > BOUND * nodes(p_spark)
            or scans(p_ours) > scans(p_spark)
            or pruning_filters(p_ours) > pruning_filters(p_spark)
            or t_ours > BOUND * t_spark + NOISE_SECONDS
        ):
            over.append(row)
    print("\nquery nodes(spark, ours) scans(spark, ours) dpp(spark, ours) plan s(spark, ours)")
    for r in rows:
        print(*r[:7], f"{r[7]:.3f} {r[8]:.3f}")
    print(f"total planning seconds: spark {total_spark:.2f}, ours {total_ours:.2f}")
    # Files without filters: no data column is a runtime-filter column, so no more scans or pruning
    # subqueries than Spark's own plan (fewer scans where V2 reuses an exchange V1 does not), and
    # other nodes only where V2 plans differ (at most the bound).
    assert not over, over
    assert total_ours <= BOUND * total_spark, (total_spark, total_ours)


def test_scans_nothing_could_prune_stay_on_spark_v1_plan(spark, tpcds_views: dict[str, str]) -> None:
    """q9: 15 scalar subqueries over ``store_sales`` with range predicates only. No bloom filter can
    answer a range, and there is no join to take a runtime filter: on V2 Spark merged none of them
    (15 scans, 1.7x Spark's time at SF1); kept on V1, Spark merges them into 5 as without us."""
    _, p_spark = measure(spark, tpcds_views["q9"], SPARK)
    _, p_ours = measure(spark, tpcds_views["q9"], OPT_IN)
    merged = len(set(re.findall(r"AS mergedValue#\d+", p_spark)))
    assert merged == 5 and len(set(re.findall(r"AS mergedValue#\d+", p_ours))) == merged
    assert nodes(p_ours) == nodes(p_spark) and scans(p_ours) == scans(p_spark)
    # Still ours: read through bloomparquet's V1 format (safe pushdown, no column indexes)...
    assert ours_scans(p_ours) == scans(p_ours) and "Format: BloomParquet" in p_ours
    # ...the scan of `reason` too: an equality, but one small file with no bloom filter on the column,
    # whose one task parquet-java prunes by statistics and dictionaries as planning would.
    assert "BatchScan" not in p_ours and "EqualTo(r_reason_sk,1)" in p_ours
