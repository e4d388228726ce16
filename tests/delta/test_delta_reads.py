"""Delta Lake reads with ``spark.bloomparquet.delta.enabled``: every query differential against
Delta's own reader with the conf off and Spark's Parquet pushdown off (the oracle), over the read
routes (format, ``delta.`path```, catalog table, ``DeltaTable.forPath``, time travel) and Delta's
features (deletion vectors, column mapping, partitions, schema evolution, type widening, OPTIMIZE,
UPDATE and MERGE, change data feed, streaming, collations). Files are written by Delta (Spark's
Parquet writer) with parquet-java's bloom filters."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters

from ..spark_conf import SPARK3, rows, spark_conf
from .tables import FILES, FILTERS, ON, ORACLE, ROWS, absent_key, keys_frame, same_rows, write_delta

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def table(spark, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("delta") / "keys"
    write_delta(spark, keys_frame(spark), path)
    return path


@pytest.fixture(scope="module")
def present(spark, table: Path) -> int:
    return spark.read.format("delta").load(str(table)).where("g = 3").limit(1).collect()[0].k


@pytest.mark.core
def test_point_miss_prunes_every_file_and_starts_no_task(spark, table: Path) -> None:
    miss = absent_key(table)
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(table)).where(f"k = {miss}"))
    assert got == []
    assert m["bloomFilesTotal"] == FILES and m["bloomFilesPruned"] == FILES, m
    assert m["tasks"] == 0, m


def test_point_hit_keeps_its_file(spark, table: Path, present: int) -> None:
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(table)).where(f"k = {present}"))
    assert len(got) == 1
    # One file holds the key; a false positive may keep a few more (1 % per filter).
    assert 1 <= m["bloomFilesTotal"] - m["bloomFilesPruned"] <= 4, m


@pytest.mark.parametrize(
    "where",
    [
        "k IN ({p}, {a}, 3, 5)",
        "email = 'u7@x.io'",
        "email IN ('u7@x.io', 'nobody')",
        "k = {a} OR email = 'u9@x.io'",
        "k = {p} AND g = 1",
        "k = {a} OR g = 1",
        "k <=> {p}",
        "k = {a} AND email LIKE 'u%'",
        "k > {a}",
    ],
)
def test_predicates_match_delta(spark, table: Path, present: int, where: str) -> None:
    clause = where.format(p=present, a=absent_key(table))
    same_rows(spark, lambda: spark.read.format("delta").load(str(table)).where(clause))


def test_a_digest_prunes_delta_files_with_no_footer_read(spark, tmp_path: Path) -> None:
    """The table's bloom digest (built over its directory) rules out the snapshot's files it covers
    with no footer read; files added after it are judged on their own; rows are Delta's."""
    path = tmp_path / "digested"
    write_delta(spark, keys_frame(spark), path)
    built = bp.build_digest(spark, str(path), "k,email")
    assert built["files"] == FILES, built
    miss = absent_key(path)
    cold = {"spark.bloomparquet.read.cache": "false"}
    with spark_conf(spark, cold):
        got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"k = {miss}"))
    assert got == [] and m["bloomFilesPruned"] == FILES and m["bloomFootersRead"] == 0, m
    assert m["bloomDigestEntries"] > 0 and m["bloomDigestFilesNotCovered"] == 0, m
    added = keys_frame(spark, 2_000, 1, seed=7)
    write_delta(spark, added, path, mode="append")
    hit = added.first().k
    with spark_conf(spark, cold):
        got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"k IN ({hit}, {miss})"))
    assert len(got) == 1 and m["bloomDigestFilesNotCovered"] == 1 and m["bloomFootersRead"] >= 1, m


def test_conf_off_leaves_delta_as_it_is(spark, table: Path) -> None:
    miss = absent_key(table)
    df = spark.read.format("delta").load(str(table)).where(f"k = {miss}")
    assert df.collect() == []
    plan = df._jdf.queryExecution().executedPlan().toString()
    assert "BloomPrunedDeltaIndex" not in plan and "PreparedDeltaFileIndex" in plan, plan
    assert "bloomFilesTotal" not in bp.scan_metrics(df)


def test_session_read_defaults_reach_delta_scans(spark, table: Path) -> None:
    """Delta's relation keeps none of its reader's options: read options reach its scans as the session's."""
    miss = absent_key(table)
    with spark_conf(spark, {"spark.bloomparquet.read.sparkPushdown": "none"}):
        same_rows(spark, lambda: spark.read.format("delta").load(str(table)).where(f"k = {miss} OR g = 1"))
        with spark_conf(spark, ON):
            df = spark.read.format("delta").load(str(table)).where(f"k = {miss} OR g = 1")
            plan = df._jdf.queryExecution().executedPlan().toString()
        assert "sparkPushdown none" in plan, plan
    with spark_conf(spark, {"spark.bloomparquet.read.enabled": "false"}):
        got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(table)).where(f"k = {miss}"))
        assert got == [] and m.get("bloomFilesPruned", 0) == 0, m


@pytest.mark.core
def test_routes(spark, table: Path, present: int) -> None:
    miss = absent_key(table)
    spark.sql(f"CREATE TABLE IF NOT EXISTS keys_by_path USING delta LOCATION '{table}'")
    spark.read.format("delta").load(str(table)).createOrReplaceTempView("keys_view")
    jvm_delta = spark._jvm.io.delta.tables.DeltaTable

    def for_path() -> Any:
        from pyspark.sql import DataFrame

        return DataFrame(jvm_delta.forPath(spark._jsparkSession, str(table)).toDF(), spark)

    routes = {
        "sql-path": lambda w: spark.sql(f"SELECT * FROM delta.`{table}` WHERE {w}"),
        "catalog": lambda w: spark.table("keys_by_path").where(w),
        "view": lambda w: spark.sql(f"SELECT k, email FROM keys_view WHERE {w}"),
        "forPath": lambda w: for_path().where(w),
        "versionAsOf": lambda w: spark.read.format("delta").option("versionAsOf", 0).load(str(table)).where(w),
    }
    for name, route in routes.items():
        got, m = same_rows(spark, lambda route=route: route(f"k = {miss}"))
        assert got == [] and m["tasks"] == 0 and m["bloomFilesPruned"] == FILES, (name, m)
        same_rows(spark, lambda route=route: route(f"k = {present} OR k = {miss}"))


def test_time_travel_reads_the_version_asked(spark, tmp_path: Path) -> None:
    path = tmp_path / "tt"
    write_delta(spark, keys_frame(spark, 20_000, 4), path)
    first = spark.read.format("delta").load(str(path)).limit(1).collect()[0].k
    ts = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").collect()[0].timestamp
    write_delta(spark, keys_frame(spark, 20_000, 4, seed=1), path)  # a new version without `first`
    for opts in ({"versionAsOf": "0"}, {"timestampAsOf": ts.strftime("%Y-%m-%d %H:%M:%S.%f")}, {}):
        got, _ = same_rows(
            spark, lambda opts=opts: spark.read.format("delta").options(**opts).load(str(path)).where(f"k = {first}")
        )
        assert len(got) == (0 if not opts else 1), opts


@pytest.mark.core
def test_deletion_vectors_never_bring_rows_back(spark, tmp_path: Path) -> None:
    path = tmp_path / "dv"
    write_delta(spark, keys_frame(spark, 40_000, 4), path, **{"delta.enableDeletionVectors": "true"})
    some = [r.k for r in spark.read.format("delta").load(str(path)).where("g = 2").limit(6).collect()]
    spark.sql(f"DELETE FROM delta.`{path}` WHERE k IN ({some[0]}, {some[1]}, {some[2]})")
    removes = spark.sql(f"SELECT * FROM delta.`{path}`").count()
    assert removes == 40_000 - 3
    delete = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").where("operation = 'DELETE'").collect()[0]
    assert int(delete.operationMetrics["numDeletionVectorsAdded"]) > 0, delete.operationMetrics
    for where in (f"k = {some[0]}", f"k IN ({', '.join(map(str, some))})", f"k = {some[4]} OR k = {some[1]}"):
        got, m = same_rows(spark, lambda where=where: spark.read.format("delta").load(str(path)).where(where))
        assert all(r[0] not in some[:3] for r in got), where
        assert m["bloomFilesTotal"] == 4, m  # read through the pruned index, deletion vectors applied
    # Row indexes stay right in a file whose deleted rows sit among the kept ones.
    same_rows(
        spark, lambda: spark.read.format("delta").load(str(path)).where(f"k IN ({', '.join(map(str, some[3:]))})")
    )


@pytest.mark.core
@pytest.mark.parametrize("mode", ["name", "id"])
def test_column_mapping_probes_the_physical_column(spark, tmp_path: Path, mode: str) -> None:
    path = tmp_path / f"cm_{mode}"
    props = {"delta.columnMapping.mode": mode, "delta.minReaderVersion": "2", "delta.minWriterVersion": "5"}
    # parquet-java names columns as the files do (`col-<uuid>`): filters on every column.
    with spark_conf(spark, {"parquet.bloom.filter.enabled": "true"}):
        keys_frame(spark, 40_000, 4).write.format("delta").options(**props).save(str(path))
    physical = {c for p in path.glob("**/*.parquet") for (_, c) in read_bloom_filters(p)}
    assert physical and not physical & {"k", "email", "g"}, physical  # stored under the physical names
    present = spark.read.format("delta").load(str(path)).limit(1).collect()[0].k
    miss = absent_key(path, column=None)  # the files name columns `col-<uuid>`
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"k = {miss}"))
    assert got == [] and m["bloomFilesPruned"] == m["bloomFilesTotal"] > 0, m
    if mode == "name":
        spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN k TO key")
        got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"key = {miss}"))
        assert got == [] and m["bloomFilesPruned"] == m["bloomFilesTotal"] > 0, m
        got, _ = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"key = {present}"))
        assert len(got) == 1
        # Dropped and added again, `email` is another column (another physical name): the old files'
        # filters of the dropped one are not the new one's.
        spark.sql(f"ALTER TABLE delta.`{path}` DROP COLUMN email")
        spark.sql(f"ALTER TABLE delta.`{path}` ADD COLUMN email STRING")
        with spark_conf(spark, {"parquet.bloom.filter.enabled": "true"}):
            spark.sql(f"INSERT INTO delta.`{path}` VALUES ({miss}, 3, 'u7@x.io')")
        got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where("email = 'u7@x.io'"))
        assert got == [(miss, 3, "u7@x.io")] and m["bloomFilesTotal"] >= 1, (got, m)


@pytest.mark.core
def test_partitioned_tables(spark, tmp_path: Path, present: int, table: Path) -> None:
    path = tmp_path / "parts"
    write_delta(
        spark,
        keys_frame(spark, 40_000, 4).selectExpr("*", "cast(g % 3 AS string) AS p"),
        path,
        partitionOverwriteMode="static",
    )
    spark.sql(f"ALTER TABLE delta.`{path}` SET TBLPROPERTIES ('x' = 'y')")
    rows_ = spark.read.format("delta").load(str(path))
    one = rows_.where("p = '1'").limit(1).collect()[0]
    for where in (
        f"p = '1' AND k = {one.k}",
        f"p = '2' AND k = {one.k}",
        f"p = '1' OR k = {one.k}",
        f"k = {one.k}",
        "p = '0' AND k = 1",
    ):
        same_rows(spark, lambda where=where: spark.read.format("delta").load(str(path)).where(where))


@pytest.mark.core
def test_partition_columns_are_never_probed(spark, tmp_path: Path) -> None:
    path = tmp_path / "byk"
    df = spark.range(2000).selectExpr("id * 2 AS k", "cast(id % 5 AS bigint) AS part")
    with spark_conf(spark, FILTERS):
        df.write.format("delta").partitionBy("part").save(str(path))
    # `part` is not in the files: a conjunct naming it, alone or in an OR, is Delta's to prune, never probed.
    for where in ("part = 3 OR part = 4", "part = 3 OR k = 1", "k = 1 OR part = 2"):
        got, m = same_rows(spark, lambda where=where: spark.read.format("delta").load(str(path)).where(where))
        assert got and "bloomFilesTotal" not in m, (where, m)
    # With a data conjunct beside it, the files Delta kept for the partition are probed.
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where("part = 3 AND k = 1001"))
    assert got == [] and m["bloomFilesTotal"] == m["bloomFilesPruned"] > 0, m


def test_schema_evolution_reads_files_without_the_column(spark, tmp_path: Path) -> None:
    path = tmp_path / "evolve"
    write_delta(spark, keys_frame(spark, 20_000, 2).drop("email"), path)
    write_delta(spark, keys_frame(spark, 20_000, 2, seed=5), path, mode="append", mergeSchema="true")
    # Old files lack `email` (null there: no probe of it can match them).
    got, _ = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where("email = 'u7@x.io'"))
    assert len(got) == 1
    same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where("email IS NULL AND k = 4"))


# Delta Lake 3.3 (Spark 3.5) widens byte and short only.
@pytest.mark.core
@pytest.mark.parametrize(
    "before,after,big", [("smallint", "int", 40_000)] + ([] if SPARK3 else [("int", "bigint", 3_000_000_000)])
)
def test_type_widening_probes_with_the_files_type(spark, tmp_path: Path, before: str, after: str, big: int) -> None:
    path = tmp_path / "widen"
    df = (
        spark.range(30_000)
        .selectExpr(f"cast((id * 7919) % 16001 AS {before}) * cast(2 AS {before}) AS n")
        .repartition(3)
    )
    with spark_conf(spark, {"parquet.bloom.filter.enabled#n": "true"}):
        df.write.format("delta").option("delta.enableTypeWidening", "true").save(str(path))
    spark.sql(f"ALTER TABLE delta.`{path}` ALTER COLUMN n TYPE {after.upper()}")
    with spark_conf(spark, {"parquet.bloom.filter.enabled#n": "true"}):
        spark.range(5).selectExpr(f"cast((id + {big}) * 2 AS {after}) AS n").write.format("delta").mode("append").save(
            str(path)
        )
    present = spark.read.format("delta").load(str(path)).where("n < 30000").limit(1).collect()[0].n
    for where in (
        f"n = {present}",
        f"n = {big * 2}",
        f"n = {big * 2 + 2}",
        "n = 1",
        f"n IN ({present}, 3, {big * 2 + 4})",
    ):
        same_rows(spark, lambda where=where: spark.read.format("delta").load(str(path)).where(where))
    # Odd values were never written: the old files' filters (of the narrower type) rule them out.
    _, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where("n = 1 OR n = 3"))
    assert m["bloomFilesPruned"] == m["bloomFilesTotal"] > 0, m


def test_optimize_update_merge(spark, tmp_path: Path) -> None:
    path = tmp_path / "dml"
    write_delta(spark, keys_frame(spark, 40_000, 8), path)
    some = [r.k for r in spark.read.format("delta").load(str(path)).where("g = 4").limit(4).collect()]
    with spark_conf(spark, FILTERS):
        spark.sql(f"UPDATE delta.`{path}` SET email = 'changed' WHERE k = {some[0]}")
        spark.sql(
            f"MERGE INTO delta.`{path}` t USING (SELECT {some[1]} AS k UNION ALL SELECT 1 AS k) s ON t.k = s.k "
            "WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (k, email, g) VALUES (s.k, 'new', 0)"
        )
        spark.sql(f"OPTIMIZE delta.`{path}`")
    queries = (f"k = {some[0]}", f"k = {some[1]}", "k = 1", f"k = {some[2]}", "email = 'changed'", "email = 'new'")
    for where in queries:
        same_rows(spark, lambda where=where: spark.read.format("delta").load(str(path)).where(where))
    with spark_conf(spark, FILTERS):
        spark.sql(f"OPTIMIZE delta.`{path}` ZORDER BY (g)")
    for where in queries:
        same_rows(spark, lambda where=where: spark.read.format("delta").load(str(path)).where(where))


def test_change_data_feed_and_streaming_are_left_alone(spark, tmp_path: Path) -> None:
    path = tmp_path / "cdf"
    write_delta(spark, keys_frame(spark, 20_000, 2), path, **{"delta.enableChangeDataFeed": "true"})
    k = spark.read.format("delta").load(str(path)).limit(1).collect()[0].k
    spark.sql(f"DELETE FROM delta.`{path}` WHERE k = {k}")
    got, m = same_rows(
        spark,
        lambda: (
            spark.read.format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 0)
            .load(str(path))
            .where(f"k = {k}")
            .drop("_commit_timestamp")
        ),
    )
    assert len(got) == 2 and "bloomFilesTotal" not in m, (got, m)
    out = tmp_path / "stream_out"
    with spark_conf(spark, ON):
        query = (
            spark.readStream.format("delta")
            .load(str(path))
            .where(f"k = {k} OR g = 1")
            .writeStream.format("memory")
            .queryName("delta_stream")
            .trigger(availableNow=True)
            .option("checkpointLocation", str(out))
            .start()
        )
        query.awaitTermination()
    with spark_conf(spark, ORACLE):  # a stream starts from the table's latest snapshot
        expected = rows(spark.read.format("delta").load(str(path)).where(f"k = {k} OR g = 1"))
    assert rows(spark.table("delta_stream")) == expected


@pytest.mark.skipif(SPARK3, reason="Spark 3.5 has no collations")
def test_non_binary_collations_are_not_probed(spark, table: Path) -> None:
    # Delta Lake 4.4 refuses collated columns (DELTA_UNSUPPORTED_DATA_TYPES); a query may still compare
    # a column under a collation, where equal strings need not have equal bytes.
    got, m = same_rows(
        spark, lambda: spark.read.format("delta").load(str(table)).where("collate(email, 'UTF8_LCASE') = 'U7@X.IO'")
    )
    assert len(got) == 1
    assert m.get("bloomFilesPruned", 0) == 0, m


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 2**33), min_size=1, max_size=12), st.booleans())
def test_any_key_list_matches_delta(spark, table: Path, keys: list[int], by_email: bool) -> None:
    where = (
        f"email IN ({', '.join(repr(f'u{k % ROWS}@x.io') for k in keys)})"
        if by_email
        else f"k IN ({', '.join(map(str, keys))})"
    )
    same_rows(spark, lambda: spark.read.format("delta").load(str(table)).where(where))


@pytest.fixture(autouse=True)
def _clean_stream_tables(spark) -> Iterator[None]:
    yield
    for s in spark.streams.active:
        s.stop()
    shutil.rmtree("spark-warehouse/delta_stream", ignore_errors=True)


def test_bloomparquet_reads_still_prune_in_a_delta_session(spark, tmp_path: Path) -> None:
    """Delta's extension turns Spark's field-id matching on for the whole session; bloomparquet's own
    reads match columns by name wherever the read schema carries no field ids, and prune as ever."""
    assert spark.conf.get("spark.sql.parquet.fieldId.read.enabled") == "true"
    path = tmp_path / "plain"
    keys_frame(spark, 20_000, 2).write.format("bloomparquet").option("bloom.columns", "k").save(str(path))
    miss = absent_key(path)
    df = bp.read_bloom(spark, str(path)).where(f"k = {miss}")
    assert df.collect() == []
    m = bp.scan_metrics(df)
    assert m["bloomFilesPruned"] == m["bloomFilesTotal"] == 2 and m["tasks"] == 0, m


@pytest.mark.parametrize(
    "how", [pytest.param("inner", marks=pytest.mark.core), "left_semi", "right_outer", "keys_left"]
)
def test_key_set_joins_prune_files(spark, table: Path, present: int, how: str) -> None:
    """A join with keys held in the driver (a Python list) keeps only the files that may hold one."""
    miss = absent_key(table)

    def query(keys: list[int]) -> Any:
        ks = spark.createDataFrame([(k, f"tag{i}") for i, k in enumerate(keys)], "k BIGINT, tag STRING")
        t = spark.read.format("delta").load(str(table))
        if how == "keys_left":  # the Delta side on the right of a left outer join
            return ks.join(t, "k", "left_outer")
        return t.join(ks, "k", how)

    # Adaptive execution drops a scan that reads nothing from the final plan (and its figures with it).
    with spark_conf(spark, {"spark.sql.adaptive.enabled": "false"}):
        got, m = same_rows(spark, lambda: query([miss, miss + 2 * 10**9 + 2]))
        assert m["bloomFilesTotal"] == FILES and m["bloomFilesPruned"] >= FILES - 1, m
        got, m = same_rows(spark, lambda: query([present, miss]))
    assert 1 <= m["bloomFilesTotal"] - m["bloomFilesPruned"] <= 3, m
    assert any(present in r for r in got)
    same_rows(spark, lambda: query([present, miss, 7]))  # adaptive, as by default
