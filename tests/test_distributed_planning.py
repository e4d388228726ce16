"""Distributed planning (``spark.bloomparquet.planning.distributed``): the same decisions as
planning on the driver (same splits, same pruning counts), and rows equal to Spark's
``parquet`` with pushdown off; ``auto`` runs the job only where its estimate of the reads'
time says it pays. On ``local[n]`` the executors are threads of the driver's JVM: this checks
the job and its decisions; ``bin/test`` also runs this file on a ``local-cluster`` master,
where they are JVMs of their own."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import bloomparquet as bp

from .probe_files import COLUMNS, arrow_table, data_ids
from .spark_conf import PUSHDOWN_OFF, spark_conf
from .write_format import WRITE_FORMAT

pytestmark = [pytest.mark.spark, pytest.mark.cluster]

PLACE = "spark.bloomparquet.planning.distributed"
JOB_MILLIS = "spark.bloomparquet.planning.jobMillis"
DRIVER, EXECUTORS = {PLACE: "driver"}, {PLACE: "executors"}
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
    "bloomFilesPlannedOnExecutors",
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


def _planned(spark, path: Path, where: str, settings: dict[str, str], **options: str):
    with spark_conf(spark, settings):
        df = spark.read.format("bloomparquet").option("bloom.cache", "false").options(**options).load(str(path))
        df = df.where(where)
        rows = sorted(map(tuple, df.collect()))
        metrics = bp.scan_metrics(df)
    return rows, {k: metrics.get(k, 0) for k in COUNTS}


@pytest.mark.parametrize("where", QUERIES)
def test_distributed_planning_decides_as_the_driver(spark, dataset: Path, where: str) -> None:
    driver = _planned(spark, dataset, where, DRIVER)
    distributed = _planned(spark, dataset, where, EXECUTORS)
    assert driver[1]["bloomFilesPlannedOnExecutors"] == 0
    assert distributed[1]["bloomFilesPlannedOnExecutors"] == 5
    distributed[1]["bloomFilesPlannedOnExecutors"] = 0
    assert distributed == driver
    with spark_conf(spark, PUSHDOWN_OFF):
        expected = sorted(map(tuple, spark.read.parquet(str(dataset)).where(where).collect()))
    assert driver[0] == expected
    assert driver[1]["bloomFilesTotal"] == 5


def test_distributed_planning_runs_a_job(spark, dataset: Path) -> None:
    """Planned on the executors, the reads run in a Spark job (one more job than on the driver)."""
    tracker = spark.sparkContext.statusTracker()

    def jobs(settings: dict[str, str]) -> int:
        group = f"distributed-{settings[PLACE]}"
        spark.sparkContext.setJobGroup(group, group)
        try:
            _planned(spark, dataset, QUERIES[0], settings)
        finally:
            spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
        return len(tracker.getJobIdsForGroup(group))

    assert jobs(EXECUTORS) == jobs(DRIVER) + 1
    # The former file-count key still places it: 0 on the driver, any count as auto says.
    legacy = _planned(spark, dataset, QUERIES[0], {"spark.bloomparquet.planning.distributedThreshold": "0"})
    assert legacy[1]["bloomFilesPlannedOnExecutors"] == 0


def test_auto_places_planning_by_the_time_its_reads_take(spark, dataset: Path) -> None:
    """``auto``: a job where the driver would read longer than the executors plus the job's launch.

    One file at a time at 20 ms a request: the driver reads the 5 files in 5 waves; 2 executors of
    one core each in 3. So with a free launch the job pays on a ``local-cluster`` master, never on
    ``local[n]`` (no executor of its own), and not at a launch of 1,000 s; a warm repeat has
    nothing to read."""
    slow = {"bloom.planningParallelism": "1", "bloom.readCost.latencyMicros": "20000"}
    local = spark.sparkContext.master.startswith("local[")

    def on_executors(settings: dict[str, str], **options: str) -> int:
        _, counts = _planned(spark, dataset, QUERIES[0], {PLACE: "auto", **settings}, **slow, **options)
        return counts["bloomFilesPlannedOnExecutors"]

    assert on_executors({JOB_MILLIS: "0"}) == (0 if local else 5)
    assert on_executors({JOB_MILLIS: "1000000"}) == 0
    # Cached on the driver (bloom.cache on: the first query fills it), the repeat reads nothing there.
    on_executors({JOB_MILLIS: "1000000"}, **{"bloom.cache": "true"})
    assert on_executors({JOB_MILLIS: "0"}, **{"bloom.cache": "true"}) == 0


def test_a_repeat_finds_its_files_where_the_job_read_them(spark, dataset: Path, tmp_path: Path) -> None:
    """A file goes to the same executor every time (its slice is its path's hash, each slice
    preferring one executor), so a repeat of a planning job reads no footer: each executor's
    cache holds its files. On ``local[n]`` the driver's cache answers the repeat itself. (A copy
    of the data: files no cache has seen.)"""
    dataset = Path(shutil.copytree(dataset, tmp_path / "copy"))
    with spark_conf(spark, EXECUTORS):
        runs = []
        for _ in range(2):
            df = spark.read.format("bloomparquet").load(str(dataset)).where(QUERIES[0])
            runs.append((sorted(map(tuple, df.collect())), bp.scan_metrics(df)))
    (first_rows, _), (rows, repeat) = runs
    assert rows == first_rows
    assert repeat["bloomFootersRead"] == 0, repeat
    # On local-cluster the job ran again, for the files the driver's cache lacks (it holds the
    # footers the scan's runtime-filter columns were judged from), and read nothing.
    if spark.sparkContext.master.startswith("local["):
        assert repeat["bloomFilesPlannedOnExecutors"] == 0, repeat
    else:
        assert repeat["bloomFilesPlannedOnExecutors"] >= 1, repeat


# A session whose serializer refuses the planning job's partitions (Kryo with every class to be
# registered: Hadoop's statuses, our keys), so the job fails as a cluster's could.
_REFUSING_SERIALIZER = """
import json, sys
import bloomparquet as bp
spark = bp.session(master="local[2]", **{
    "spark.serializer": "org.apache.spark.serializer.KryoSerializer",
    "spark.kryo.registrationRequired": "true",
    "spark.bloomparquet.planning.distributed": "executors",
})
path = sys.argv[1]
spark.range(0, 4000, 1, 4).selectExpr("id * 2 AS k").write.format("bloomparquet").option("bloom.columns", "k").save(path)
out = {}
for where in ("k = 301", "k = 300", "k IN (300, 301, 7000)"):
    df = spark.read.format("bloomparquet").option("bloom.cache", "false").load(path).where(where)
    ours = sorted(r[0] for r in df.collect())
    spark.conf.set("spark.sql.parquet.filterPushdown", "false")
    theirs = sorted(r[0] for r in spark.read.parquet(path).where(where).collect())
    spark.conf.unset("spark.sql.parquet.filterPushdown")
    out[where] = {"ours": ours, "theirs": theirs, "metrics": bp.scan_metrics(df)}
print("RESULT " + json.dumps(out))
"""


def test_a_failed_job_falls_back_to_the_driver(tmp_path: Path) -> None:
    """A planning job that fails (here: a serializer that refuses its partitions) leaves the
    files to the driver: the query runs, pruned, with Spark's rows."""
    run = subprocess.run(
        [sys.executable, "-c", _REFUSING_SERIALIZER, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    line = next((x for x in run.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert run.returncode == 0 and line, run.stderr[-4000:]
    assert "the planning job failed; planning reads the 4 files on the driver" in run.stderr
    for where, got in json.loads(line[len("RESULT ") :]).items():
        assert got["ours"] == got["theirs"], where
        m = got["metrics"]
        assert m["bloomFilesPlannedOnExecutors"] == 0 and m["bloomFilesTotal"] == 4, (where, m)
        # Files of keys 0-1998, 2000-3998, ...: statistics prune all but the files holding the keys' range, the
        # filter the one 301 would be in.
        assert m["bloomFilesPruned"] == {"k = 301": 4, "k = 300": 3, "k IN (300, 301, 7000)": 2}[where], (where, m)
