"""Distributed planning (``spark.bloomparquet.planning.distributedThreshold``): the same
decisions as planning on the driver (same splits, same pruning counts), and rows equal to
Spark's ``parquet`` with pushdown off. On ``local[n]`` the executors are threads of the
driver's JVM: this checks the job and its decisions, not where the reads happen."""

from __future__ import annotations

from pathlib import Path

import pytest

import bloomparquet as bp

from .probe_files import COLUMNS, arrow_table, data_ids
from .spark_conf import PUSHDOWN_OFF, spark_conf
from .write_format import WRITE_FORMAT

pytestmark = pytest.mark.spark

THRESHOLD = "spark.bloomparquet.planning.distributedThreshold"
I64, STR = COLUMNS["i64"][1], COLUMNS["str"][1]
# Even ids are in the data, odd ones are not.
QUERIES = [
    f"i64 = {I64(301)}",
    f"i64 = {I64(300)}",
    f"i64 IN ({I64(301)}, {I64(5001)}, {I64(4000)})",
    f"str = '{STR(1201)}'",
    f"str = '{STR(1200)}' OR i64 = {I64(77)}",
]
COUNTS = [
    "bloomFilesTotal",
    "bloomFilesPruned",
    "bloomRowGroupsTotal",
    "bloomRowGroupsPrunedByStats",
    "bloomRowGroupsPrunedByBloom",
    "bloomBrokenFilters",
    "bloomUnreadableFiles",
    "tasks",
]


@pytest.fixture(scope="module")
def dataset(spark, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("distributed") / "data"
    (
        spark.createDataFrame(arrow_table(data_ids(), ["i64", "str"]))
        .repartition(5)
        .write.option("parquet.block.size", 16 * 1024)
        .format(WRITE_FORMAT)
        .option("bloom.columns", "i64,str")
        .save(str(path))
    )
    return path


def _planned(spark, path: Path, where: str, settings: dict[str, str]):
    with spark_conf(spark, settings):
        df = spark.read.format("bloomparquet").option("bloom.cache", "false").load(str(path)).where(where)
        rows = sorted(map(tuple, df.collect()))
        metrics = bp.scan_metrics(df)
    return rows, {k: metrics.get(k, 0) for k in COUNTS}


@pytest.mark.parametrize("where", QUERIES)
def test_distributed_planning_decides_as_the_driver(spark, dataset: Path, where: str) -> None:
    driver = _planned(spark, dataset, where, {THRESHOLD: "0"})
    distributed = _planned(spark, dataset, where, {THRESHOLD: "1"})
    assert distributed == driver
    with spark_conf(spark, PUSHDOWN_OFF):
        expected = sorted(map(tuple, spark.read.parquet(str(dataset)).where(where).collect()))
    assert driver[0] == expected
    assert driver[1]["bloomFilesTotal"] == 5


def test_distributed_planning_runs_a_job(spark, dataset: Path) -> None:
    """Above the threshold the reads run in a Spark job (one more job than on the driver)."""
    tracker = spark.sparkContext.statusTracker()

    def jobs(settings: dict[str, str]) -> int:
        group = f"distributed-{settings[THRESHOLD]}"
        spark.sparkContext.setJobGroup(group, group)
        try:
            _planned(spark, dataset, QUERIES[0], settings)
        finally:
            spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
        return len(tracker.getJobIdsForGroup(group))

    assert jobs({THRESHOLD: "1"}) == jobs({THRESHOLD: "100"}) + 1
