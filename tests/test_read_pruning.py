"""The read path prunes for real, costs nothing when it can't, survives broken
filters, validates its options, and works from SQL."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters, xxh64_plain

from .spark_conf import PUSHDOWN_OFF, spark_conf

pytestmark = pytest.mark.spark

FILES, GROUPS, ROWS_PER_GROUP = 6, 8, 2000


@pytest.fixture(scope="module")
def lake(tmp_path_factory) -> Path:
    """Unsorted high-cardinality keys: min/max statistics can't prune them."""
    out = tmp_path_factory.mktemp("lake") / "events"
    out.mkdir()
    rng = np.random.default_rng(5)
    # Distinct, drawn without a permutation of the whole range (that took 80 s and 8 GB).
    keys = (
        rng.choice(10**9, FILES * GROUPS * ROWS_PER_GROUP, replace=False).astype(np.int64) * 2
    )  # even: odd keys are absent
    for f in range(FILES):
        part = keys[f * GROUPS * ROWS_PER_GROUP : (f + 1) * GROUPS * ROWS_PER_GROUP]
        pq.write_table(
            pa.table(
                {
                    "user_id": part,
                    "email": [f"u{k}@example.com" for k in part],
                    "seq": np.arange(len(part), dtype=np.int64) + f * len(part),  # sorted: statistics prune it
                    "v": rng.random(len(part)),
                }
            ),
            out / f"part-{f}.parquet",
            row_group_size=ROWS_PER_GROUP,
            bloom_filter_options={
                "user_id": {"ndv": ROWS_PER_GROUP, "fpp": 0.01},
                "email": {"ndv": ROWS_PER_GROUP, "fpp": 0.01},
            },
        )
    return out


def _run(df) -> tuple[list, dict[str, int]]:
    rows = df.collect()
    return rows, bp.scan_metrics(df)


def _absent_key_no_filter_admits(lake: Path) -> int:
    """An absent key that every stored filter rejects (checked with the Python reference)."""
    filters = [
        f for p in sorted(lake.glob("*.parquet")) for (_, c), f in read_bloom_filters(p).items() if c == "user_id"
    ]
    for candidate in range(10**9 + 1, 10**9 + 10**6, 2):  # inside every row group's min/max
        h = xxh64_plain(np.array([candidate], np.int64), "INT64")
        if not any(f.check_hashes(h)[0] for f in filters):
            return candidate
    raise AssertionError("no such key")


def test_point_miss_prunes_everything_and_launches_no_task(spark, lake: Path) -> None:
    key = _absent_key_no_filter_admits(lake)
    rows, m = _run(bp.read_bloom(spark, str(lake)).where(f"user_id = {key}"))
    assert rows == []
    assert m["bloomRowGroupsTotal"] == FILES * GROUPS
    assert m["bloomRowGroupsPrunedByBloom"] == FILES * GROUPS
    assert m["bloomFilesPruned"] == FILES
    assert m["tasks"] == 0


def test_misses_prune_at_least_95_percent(spark, lake: Path) -> None:
    df = bp.read_bloom(spark, str(lake))
    pruned = total = 0
    for key in range(10**9 + 1, 10**9 + 41, 2):
        rows, m = _run(df.where(f"user_id = {key}"))
        assert rows == []
        pruned += m["bloomRowGroupsPrunedByBloom"]
        total += m["bloomRowGroupsTotal"]
    assert pruned / total >= 0.95, (pruned, total)
    rows, m = _run(df.where("email IN ('nobody@x', 'u1@example.com', 'u3@example.com')"))
    assert rows == [] and m["bloomRowGroupsPrunedByBloom"] >= 0.95 * m["bloomRowGroupsTotal"]


def test_point_hit_reads_its_row_group(spark, lake: Path) -> None:
    table = pq.read_table(sorted(lake.glob("*.parquet"))[3])
    key = table.column("user_id")[4321].as_py()
    rows, m = _run(bp.read_bloom(spark, str(lake)).where(f"user_id = {key}"))
    assert [r.user_id for r in rows] == [key]
    assert m["bloomRowGroupsTotal"] - m["bloomRowGroupsPrunedByBloom"] >= 1
    assert m["tasks"] >= 1 and m["bloomFilesPruned"] >= FILES - 2


def test_task_mode_counts_each_file_once_however_many_splits(spark, lake: Path) -> None:
    """A file read in several splits (tasks) counts its files and row groups once, as plan mode does."""
    miss = _absent_key_no_filter_admits(lake)
    hit = pq.read_table(sorted(lake.glob("*.parquet"))[3]).column("user_id")[4321].as_py()
    with spark_conf(spark, {"spark.sql.files.maxPartitionBytes": str(64 * 1024)}):
        for where in (f"user_id = {miss}", f"user_id = {hit}", "seq IN (5, 17000)"):
            _, plan = _run(bp.read_bloom(spark, str(lake)).where(where))
            _, task = _run(bp.read_bloom(spark, str(lake), **{"bloom.mode": "task"}).where(where))
            assert task["tasks"] >= 2 * FILES, task  # every file in several splits
            for k in (
                "bloomFilesTotal",
                "bloomFilesPruned",
                "bloomRowGroupsTotal",
                "bloomRowGroupsPrunedByStats",
                "bloomRowGroupsPrunedByBloom",
            ):
                assert task[k] == plan[k], (where, k, plan, task)
            assert task["bloomFilesTotal"] == FILES and task["bloomRowGroupsTotal"] == FILES * GROUPS


def test_statistics_prune_before_filters_are_read(spark, lake: Path) -> None:
    rows, m = _run(bp.read_bloom(spark, str(lake)).where("seq IN (5, 17000)"))
    assert sorted(r.seq for r in rows) == [5, 17000]
    assert m["bloomRowGroupsPrunedByStats"] == FILES * GROUPS - 2
    assert m["bloomFilterBytesRead"] == 0  # seq has no filter; user_id's were not needed


def test_no_usable_predicate_costs_nothing_and_plans_like_parquet(spark, lake: Path) -> None:
    for where in ("v > 0.5", "user_id > 10", "user_id + 1 = 7", "CAST(user_id AS STRING) = '8'"):
        ours = bp.read_bloom(spark, str(lake)).where(where)
        theirs = spark.read.parquet(str(lake)).where(where)
        rows, m = _run(ours)
        their_rows, their_m = _run(theirs)
        assert sorted(rows) == sorted(their_rows)
        assert m.get("bloomFootersRead", 0) == 0 and m.get("bloomFilterBytesRead", 0) == 0, where
        assert m["tasks"] == their_m["tasks"], where


def test_repeated_query_reads_nothing_again(spark, lake: Path) -> None:
    df = bp.read_bloom(spark, str(lake))
    _run(df.where("user_id = 77777"))
    _, m = _run(df.where("user_id = 77777"))
    assert m["bloomFootersRead"] == 0 and m["bloomFilterBytesRead"] == 0
    _, m = _run(bp.read_bloom(spark, str(lake), **{"bloom.cache": False}).where("user_id = 77777"))
    assert m["bloomFootersRead"] == FILES and m["bloomFilterBytesRead"] > 0


def test_task_mode_prunes_inside_tasks(spark, lake: Path) -> None:
    key = _absent_key_no_filter_admits(lake)
    rows, m = _run(bp.read_bloom(spark, str(lake), **{"bloom.mode": "task"}).where(f"user_id = {key}"))
    assert rows == []
    assert m["tasks"] >= 1  # planned like parquet
    assert m["bloomRowGroupsPrunedByBloom"] == FILES * GROUPS


def test_explain_shows_the_probes(spark, lake: Path) -> None:
    df = bp.read_bloom(spark, str(lake)).where("user_id IN (1, 3) OR email = 'a@b.c'")
    plan = df._jdf.queryExecution().executedPlan().toString()
    assert "BloomProbes: (user_id IN (1, 3) OR email IN (a@b.c))" in plan
    assert "Format: bloomparquet" in plan


def test_broken_filter_is_ignored_counted_and_data_read(spark, lake: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    src = sorted(lake.glob("*.parquet"))[0]
    dst = broken / src.name
    shutil.copy(src, dst)
    meta = pq.ParquetFile(dst).metadata
    key = pq.read_table(dst).column("user_id")[10].as_py()  # in row group 0
    chunk = meta.row_group(0).column(0)
    with open(dst, "r+b") as f:  # garbage over the first filter's thrift header
        f.seek(chunk.bloom_filter_offset)
        f.write(b"\xff" * 8)
    rows, m = _run(bp.read_bloom(spark, str(broken)).where(f"user_id = {key}"))
    assert [r.user_id for r in rows] == [key]
    assert m["bloomBrokenFilters"] >= 1


def test_invalid_options_name_the_option(spark, lake: Path) -> None:
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    cases = {
        "bloom.mode": ("bogus", "plan, task"),
        "bloom.enabled": ("yes", "true or false"),
        "bloom.cacheMb": ("-1", "0 to"),
        "bloom.planningParallelism": ("-1", "0 to 1024"),
        "bloom.sparkPushdown": ("some", "safe, all, none"),
        "BLOOM.NOPE": ("1", "did you mean 'bloom.mode'?"),
    }
    for key, (value, allowed) in cases.items():
        with pytest.raises((Py4JJavaError, PySparkException)) as e:
            spark.read.format("bloomparquet").option(key, value).load(str(lake)).where("user_id = 1").collect()
        assert key.lower() in str(e.value).lower() and allowed in str(e.value), str(e.value)[:300]
    with pytest.raises(ValueError, match="option 'bloom.mode' = 'fast': expected one of plan, task"):
        bp.read_bloom(spark, str(lake), **{"bloom.mode": "fast"})
    with pytest.raises(ValueError, match="option 'bloom.cacheMb' = '-5': expected an integer from 0 to 1048576"):
        bp.read_bloom(spark, str(lake), **{"bloom.cacheMb": -5})


def test_sql_table_and_path_queries(spark, lake: Path) -> None:
    key = pq.read_table(sorted(lake.glob("*.parquet"))[1]).column("user_id")[7].as_py()
    spark.sql("DROP TABLE IF EXISTS events_bp")
    spark.sql(f"CREATE TABLE events_bp USING bloomparquet LOCATION '{lake}'")
    try:
        assert [r.user_id for r in spark.sql(f"SELECT * FROM events_bp WHERE user_id = {key}").collect()] == [key]
        ids = ", ".join(str(k) for k in [key, *range(1, 2001, 2)])
        assert spark.sql(f"SELECT count(*) FROM events_bp WHERE user_id IN ({ids})").first()[0] == 1
    finally:
        spark.sql("DROP TABLE IF EXISTS events_bp")
    df = spark.sql(f"SELECT user_id FROM bloomparquet.`{lake}` WHERE user_id = {key} OR email = 'x'")
    assert [r.user_id for r in df.collect()] == [key]


def test_sql_paths_prune_inside_tasks(spark, lake: Path) -> None:
    """Spark's V1 route (the extension's conversion switched off): catalog tables go through
    the V1 format, whose scan still outputs only the rows of surviving row groups."""
    key = _absent_key_no_filter_admits(lake)
    scanned = {}
    for enabled in ("true", "false"):
        spark.sql("DROP TABLE IF EXISTS events_v1")
        spark.sql(
            f"CREATE TABLE events_v1 USING bloomparquet OPTIONS ('bloom.enabled'='{enabled}', "
            f"'bloom.sparkPushdown'='none') LOCATION '{lake}'"
        )
        df = spark.sql(f"SELECT * FROM events_v1 WHERE user_id = {key}")
        with spark_conf(spark, {"spark.bloomparquet.sql.planTimePruning": "false"}):
            rows, m = _run(df)
        assert "bloomTasksPlanned" not in m
        assert rows == []
        scanned[enabled] = m["numOutputRows"]
    spark.sql("DROP TABLE IF EXISTS events_v1")
    assert scanned["false"] == FILES * GROUPS * ROWS_PER_GROUP
    assert scanned["true"] == 0


def test_filters_naming_a_partition_column_stored_in_the_files_too(spark, tmp_path: Path) -> None:
    """Spark takes a partition column from the directory; a file may store a column of the same name
    with other values. A data filter mixing it with a data column must not be probed on the file's copy."""
    root = tmp_path / "parts"
    for year in (2020, 2021):
        d = root / f"year={year}"
        d.mkdir(parents=True)
        table = pa.table(
            {"id": np.arange(1000, dtype=np.int64) + year * 10000, "year": np.full(1000, 1999, dtype=np.int32)}
        )  # not the directory's value
        pq.write_table(
            table,
            d / "f.parquet",
            row_group_size=250,
            bloom_filter_options={"id": {"ndv": 1000, "fpp": 0.01}, "year": {"ndv": 1, "fpp": 0.01}},
        )
    readers = {
        "plan": bp.read_bloom(spark, str(root)),
        "task": bp.read_bloom(spark, str(root), **{"bloom.mode": "task"}),
        "sql": spark.sql(f"SELECT * FROM bloomparquet.`{root}`"),
    }
    for where in (
        "year = 2020 OR id = 5",
        "(year = 2021 OR id = 20200001) AND id < 30000000",
        "year IN (2020, 7) OR id = 5",
    ):
        with spark_conf(spark, PUSHDOWN_OFF):
            want = sorted(spark.read.parquet(str(root)).where(where).collect())
        assert want, where
        for via, df in readers.items():
            assert sorted(df.where(where).collect()) == want, (via, where)


def test_partitioned_and_merged_schemas_and_case(spark, tmp_path: Path) -> None:
    root = tmp_path / "parts"
    for year, extra in ((2020, False), (2021, True)):
        d = root / f"year={year}"
        d.mkdir(parents=True)
        cols = {"id": pa.array(np.arange(1000, dtype=np.int64) + year * 10000)}
        if extra:  # a column only some files have
            cols["tag"] = pa.array([f"t{i % 7}" for i in range(1000)])
        pq.write_table(
            pa.table(cols),
            d / "f.parquet",
            row_group_size=250,
            bloom_filter_options={c: {"ndv": 1000, "fpp": 0.01} for c in cols},
        )
    for where in (
        "id = 20500",
        "ID = 20500 AND year = 2020",
        "tag = 't3'",
        "tag IN ('t3', 'zz') OR id = 20001",
        "year = 2021 AND id IN (210007, 5)",
    ):
        got = sorted(bp.read_bloom(spark, str(root), mergeSchema="true").where(where).collect())
        with spark_conf(spark, PUSHDOWN_OFF):
            want = sorted(spark.read.option("mergeSchema", "true").parquet(str(root)).where(where).collect())
        assert got == want, where
