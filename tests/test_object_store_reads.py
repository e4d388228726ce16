"""Requests per file while planning, counted by the test jar's ``slow:`` file system
(an object store's GETs: each positioned read, each stream read after a seek):
one for a file bloomparquet wrote, whose filters lie next to its footer; rows
always equal Spark's ``parquet`` with pushdown off."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from bloomparquet import scan_metrics

from .probe_files import COLUMNS, ROW_GROUP, arrow_table, data_ids, write_files
from .schema_reads import jobs_run
from .spark_conf import PUSHDOWN_OFF, spark_conf
from .write_format import WRITE_FORMAT

pytestmark = pytest.mark.spark

# Ids in the data are even: 301 is absent but inside every chunk's min/max, 300 is present.
MISS, HIT = COLUMNS["i64"][1](301), COLUMNS["i64"][1](300)


@pytest.fixture(scope="module")
def slow(spark):
    fs = spark._jvm.io.bloomparquet.testing.SlowFileSystem
    conf = spark._jsc.hadoopConfiguration()
    for k, v in fs.settings().items():
        conf.set(k, v)
    fs.setLatencyMs(0, 0)
    return fs


def _gets(fs, files: list[Path]) -> list[int]:
    return [int(fs.of(str(f))[1]) for f in files]


def _planning_gets(spark, fs, path: Path, files: list[Path], settings: dict[str, str] | None = None) -> list[int]:
    """GETs per file of pruning's planning of a point miss (cache off). Physical planning comes first and
    is not counted: Spark asks every V2 scan for its runtime-filter columns there, which reads the first
    and last file's footer (BloomColumns). The query then runs: Spark plans a V2 scan's splits when it
    executes, and a miss starts no task, so every GET counted is pruning's."""
    options = {"bloom.cache": "false", **(settings or {})}
    q = spark.read.format("bloomparquet").options(**options).load(f"slow://{path}").where(f"i64 = {MISS}")
    q._jdf.queryExecution().executedPlan()
    fs.reset()
    assert q.collect() == []
    return _gets(fs, files)


def _assert_rows_equal(spark, path: Path) -> None:
    for value in (MISS, HIT):
        ours = spark.read.format("bloomparquet").load(f"slow://{path}").where(f"i64 = {value}").collect()
        with spark_conf(spark, PUSHDOWN_OFF):
            theirs = spark.read.parquet(str(path)).where(f"i64 = {value}").collect()
        assert sorted(map(tuple, ours)) == sorted(map(tuple, theirs))


def test_slow_file_system_counts_gets_and_bytes(spark, slow, tmp_path: Path) -> None:
    f = tmp_path / "blob"
    f.write_bytes(bytes(range(256)) * 40)
    jvm = spark._jvm
    fs = jvm.org.apache.hadoop.fs.Path(f"slow://{f}").getFileSystem(spark._jsc.hadoopConfiguration())
    buf = spark.sparkContext._gateway.new_array(jvm.byte, 100)
    slow.reset()
    stream = fs.open(jvm.org.apache.hadoop.fs.Path(f"slow://{f}"))
    stream.readFully(10, buf)  # a positioned read: one GET
    stream.readFully(5000, buf, 0, 50)  # another
    stream.seek(1000)
    stream.read(buf, 0, 30)  # a stream read after a seek: a GET
    stream.read(buf, 0, 20)  # follows on: the same GET
    stream.seek(1050)  # where the stream already is: still the same GET
    stream.read(buf, 0, 10)
    stream.seek(0)
    stream.read()  # elsewhere: a new GET
    stream.close()
    assert list(slow.of(str(f))) == [1, 4, 100 + 50 + 30 + 20 + 10 + 1]
    assert list(slow.totals()) == [1, 1, 4, 211]
    slow.reset()
    assert list(slow.of(str(f))) == [0, 0, 0]


def test_file_we_wrote_costs_one_get_to_plan(spark, slow, tmp_path: Path) -> None:
    path = tmp_path / "ours"
    (
        spark.createDataFrame(arrow_table(data_ids(), ["i64", "str"]))
        .coalesce(1)
        .write.option("parquet.block.size", 48 * 1024)
        .format(WRITE_FORMAT)
        .option("bloom.columns", "i64")
        .save(str(path))
    )
    files = sorted(path.glob("*.parquet"))
    assert pq.ParquetFile(files[0]).metadata.num_row_groups > 1
    assert _planning_gets(spark, slow, path, files) == [1]
    _assert_rows_equal(spark, path)


def test_tail_size_is_learned_within_a_scan(spark, slow, tmp_path: Path) -> None:
    """Filters of 12 columns make the tail longer than the first read: the first file takes
    a second read, files after it are read whole in one (files planned one at a time)."""
    (tmp_path / "w").mkdir()
    wide = write_files("ours", tmp_path / "w" / "data.parquet", spark)[0]
    path = tmp_path / "wide"
    path.mkdir()
    files = [path / f"part-{i}.parquet" for i in range(4)]
    for f in files:
        shutil.copy(wide, f)
    gets = _planning_gets(spark, slow, path, files, {"bloom.planningParallelism": "1"})
    assert sorted(gets) == [1, 1, 1, 2]
    _assert_rows_equal(spark, path)


def test_other_writers_files(spark, slow, tmp_path: Path) -> None:
    """pyarrow and parquet-java (Spark) store their filters together before the footer
    (parquet-java before its page indexes): at most two reads, the tail and the filters
    (parquet-java's default filters are 1 MiB), no more than parquet-java itself reads in the
    task for the same query."""
    arrow = tmp_path / "arrow"
    arrow.mkdir()
    pq.write_table(
        arrow_table(data_ids(), ["i64", "str"]),
        arrow / "part-0.parquet",
        row_group_size=ROW_GROUP,
        bloom_filter_options={"i64": {"ndv": ROW_GROUP, "fpp": 0.05}},
    )
    assert _planning_gets(spark, slow, arrow, [arrow / "part-0.parquet"])[0] <= 2
    _assert_rows_equal(spark, arrow)

    path = tmp_path / "spark"
    (
        spark.createDataFrame(arrow_table(data_ids(), ["i64", "str"]))
        .coalesce(1)
        .write.option("parquet.block.size", 48 * 1024)
        .option("parquet.bloom.filter.enabled#i64", "true")
        .parquet(str(path))
    )
    files = sorted(path.glob("*.parquet"))
    assert pq.ParquetFile(files[0]).metadata.num_row_groups > 1
    ours = _planning_gets(spark, slow, path, files)[0]
    slow.reset()
    spark.read.parquet(f"slow://{path}").where(f"i64 = {MISS}").collect()
    theirs = _gets(slow, files)[0]
    assert ours <= 2
    assert ours <= theirs
    _assert_rows_equal(spark, path)


def test_a_task_checks_a_files_version_once_however_many_of_its_splits_it_reads(spark, slow, tmp_path: Path) -> None:
    """Plan mode cuts a file into a split per run of kept row groups; a task holding several of
    them asks for the file's status (whether it is still the version planning judged) once."""
    path = tmp_path / "runs"
    path.mkdir()
    groups, per_group = 8, 500
    ids = np.arange(groups * per_group, dtype=np.int64) * 2  # ascending: row group g holds ids g*500..
    pq.write_table(
        arrow_table(ids, ["i64", "str"]),
        path / "part-0.parquet",
        row_group_size=per_group,
        bloom_filter_options={"i64": {"ndv": per_group, "fpp": 0.01}},
    )
    wanted = ", ".join(str(COLUMNS["i64"][1](int(ids[g * per_group + 7]))) for g in (1, 3, 5, 7))
    where = f"i64 IN ({wanted})"
    with spark_conf(spark, PUSHDOWN_OFF):
        theirs = sorted(map(tuple, spark.read.parquet(str(path)).where(where).collect()))
    assert len(theirs) == 4
    statuses = {}
    # No pruned row group read to join two runs; the splits in one partition, or each in its own.
    for tasks, packing in (
        (1, {"spark.sql.files.minPartitionNum": "1"}),
        (4, {"spark.sql.files.maxPartitionBytes": "1"}),
    ):
        with spark_conf(spark, {"spark.sql.files.openCostInBytes": "0", **packing}):
            q = spark.read.format("bloomparquet").load(f"slow://{path}").where(where)
            slow.reset()
            assert sorted(map(tuple, q.collect())) == theirs
            statuses[tasks] = slow.statusesOf(str(path / "part-0.parquet"))
            m = scan_metrics(q)
            assert m["bloomTasksPlanned"] == tasks and m["bloomRowGroupsTotal"] == groups, (tasks, m)
    # The version check asks once per task: 3 fewer in one task than in four (what Spark's own reader
    # and planning ask is the same either way; the check per split gave no difference).
    assert statuses[4] - statuses[1] == 3, statuses


def test_a_paths_schema_costs_the_reads_of_sparks_inference(spark, slow, tmp_path: Path) -> None:
    """A path's schema: Spark's file's first footer is read on the driver rather than in Spark's
    schema job, with the same GETs. pyarrow's file stores no Spark schema: the first read tries
    it on the driver in vain, then Spark's job reads it; later reads go straight to the job, at
    Spark's own count."""
    arrow = tmp_path / "arrow"
    arrow.mkdir()
    pq.write_table(arrow_table(data_ids(), ["i64", "str"]), arrow / "part-0.parquet")
    written = tmp_path / "spark"
    spark.createDataFrame(arrow_table(data_ids(), ["i64", "str"])).coalesce(1).write.parquet(str(written))

    def gets(source: str, path: Path) -> int:
        slow.reset()
        spark.read.format(source).load(f"slow://{path}").schema  # noqa: B018 (the schema is the read)
        return sum(_gets(slow, sorted(path.glob("*.parquet"))))

    sparks = gets("parquet", written)
    assert sparks > 0
    assert gets("bloomparquet", written) == sparks
    _, jobs = jobs_run(spark, lambda: spark.read.format("bloomparquet").load(f"slow://{written}").schema)
    assert jobs == 0  # those GETs were the driver's
    sparks = gets("parquet", arrow)
    assert gets("bloomparquet", arrow) > sparks  # the driver's try, then Spark's job
    assert gets("bloomparquet", arrow) == sparks
