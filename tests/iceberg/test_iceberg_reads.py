"""Apache Iceberg reads with ``spark.bloomparquet.iceberg.enabled``: every query differential against
Iceberg alone (the conf off) and against the table's rows filtered in Python, over the read routes
(``spark.table``, SQL, ``format("iceberg")``, views, a JDBC catalog) and Iceberg's features (field ids
across renames and re-added columns, type promotion, position deletes and deletion vectors, time
travel, branches, metadata tables and columns, format versions 1-3). Files are written by Spark with
Iceberg's writer and its own bloom filters (parquet-java's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloomparquet as bp

from ..spark_conf import SPARK3, rows, spark_conf
from .tables import FILES, ROWS_PER_FILE, bloom_properties, create_events

pytestmark = pytest.mark.spark

ON = {"spark.bloomparquet.iceberg.enabled": "true"}
OFF = {"spark.bloomparquet.iceberg.enabled": "false"}
KEYS = 3 * ROWS_PER_FILE * FILES
TRAVEL_OPTION = "snapshot-id" if SPARK3 else "versionAsOf"


def both(spark, query: Callable[[], Any]) -> tuple[list[tuple[Any, ...]], dict[str, int], dict[str, int]]:
    """``query``'s rows with the conf on, checked equal to Iceberg alone's; the scan metrics of each."""
    with spark_conf(spark, OFF):
        df = query()
        expected = rows(df)
        alone = bp.scan_metrics(df)
    with spark_conf(spark, ON):
        df = query()
        got = rows(df)
        ours = bp.scan_metrics(df)
    assert got == expected
    # Never more work than Iceberg alone: the same files or fewer, never more rows decoded. A scan adaptive
    # execution dropped from the final plan (a join side that read nothing) planned no task there.
    ours.setdefault("tasks", 0)
    alone.setdefault("tasks", 0)
    assert ours["tasks"] <= alone["tasks"] and ours.get("numOutputRows", 0) <= alone.get("numOutputRows", 0), (
        ours,
        alone,
    )
    return got, ours, alone


@pytest.fixture(scope="module")
def events(spark) -> str:
    create_events(spark, "lake.db.events")
    return "lake.db.events"


@pytest.fixture(scope="module")
def all_rows(spark, events: str) -> list[Any]:
    with spark_conf(spark, OFF):
        return spark.table(events).collect()


@pytest.mark.cluster
@pytest.mark.core
def test_point_miss_plans_no_task(spark, events: str) -> None:
    # Within every file's range: statistics keep files, bloom filters none.
    for where in ("k = 4", "k IN (4, 5, 8)", "s = 'u4'", "s = 'u4' AND st.b = 'b4'"):
        got, ours, alone = both(spark, lambda w=where: spark.table(events).where(w))
        assert got == [] and ours["tasks"] == 0 < alone["tasks"], (where, ours, alone)
        # Planning's counters join Iceberg's scan metrics: every file its statistics kept, ruled out.
        assert ours["bloomFilesPruned"] == ours["bloomFilesTotal"] > 0 and "bloomFilesTotal" not in alone, (ours, alone)
    # Outside every file's range: statistics rule them all out already.
    for where in ("st.a = 7920", f"k = {KEYS + 3}"):
        got, ours, alone = both(spark, lambda w=where: spark.table(events).where(w))
        assert got == [] and ours["tasks"] == alone["tasks"] == 0, (where, ours, alone)


def test_point_hit_keeps_its_file(spark, events: str) -> None:
    got, ours, alone = both(spark, lambda: spark.table(events).where("k = 3003"))
    assert [r[0] for r in got] == [3003]
    # Iceberg's statistics kept the files whose ranges hold the key (one); bloom keeps that one.
    assert 1 <= ours["tasks"] <= alone["tasks"], (ours, alone)
    got, ours, alone = both(spark, lambda: spark.table(events).where("s = 'u3003'"))
    # Strings are unsorted across files: statistics keep every file, bloom filters one (FPP 1 %, 5 others).
    assert [r[0] for r in got] == [3003] and ours["tasks"] < alone["tasks"], (ours, alone)
    assert 0 < ours["bloomFilesPruned"] < ours["bloomFilesTotal"] and ours["bloomRowGroupsPrunedByBloom"] > 0, ours


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    present=st.lists(st.integers(0, KEYS // 3 - 1).map(lambda i: 3 * i), max_size=4),
    absent=st.lists(st.integers(0, KEYS).filter(lambda k: k % 3 != 0), max_size=6),
    shape=st.sampled_from(["in", "or_string", "and_struct", "null_safe"]),
)
def test_lookups_are_iceberg_alone_and_the_rows_themselves(
    spark, events: str, all_rows, present, absent, shape
) -> None:
    keys = present + absent
    if not keys:
        return
    listed = ", ".join(map(str, keys))
    where, keep = {
        "in": (f"k IN ({listed})", lambda r: r.k in keys),
        "or_string": (
            f"k = {keys[0]} OR s IN ({', '.join(repr(f'u{k}') for k in keys[1:]) or 'NULL'})",
            lambda r: r.k == keys[0] or r.s in {f"u{k}" for k in keys[1:]},
        ),
        "and_struct": (
            f"k IN ({listed}) AND st.a = {keys[0] % 7919}",
            lambda r: r.k in keys and r.st.a == keys[0] % 7919,
        ),
        "null_safe": (f"k <=> {keys[0]}", lambda r: r.k == keys[0]),
    }[shape]
    got, _, _ = both(spark, lambda: spark.table(events).where(where))
    assert got == sorted((tuple(r) for r in all_rows if keep(r)), key=repr), where


@pytest.mark.cluster
def test_every_route(spark, events: str) -> None:
    spark.table(events).createOrReplaceTempView("events_view")
    routes = {
        "table": lambda w: spark.table(events).where(w),
        "sql": lambda w: spark.sql(f"SELECT * FROM {events} WHERE {w}"),
        "format": lambda w: spark.read.format("iceberg").load(events).where(w),
        "view": lambda w: spark.sql(f"SELECT k, s FROM events_view WHERE {w}"),
        "subquery": lambda w: spark.sql(f"SELECT count(*) FROM (SELECT * FROM {events} WHERE {w}) t"),
    }
    for name, route in routes.items():
        got, ours, _ = both(spark, lambda r=route: r("k = 4"))
        assert ours["tasks"] == 0, name
        got, _, _ = both(spark, lambda r=route: r("k IN (3003, 4)"))
        assert got != [], name


def test_a_jdbc_catalog_on_sqlite(spark) -> None:
    create_events(spark, "jlake.db.events")
    got, ours, _ = both(spark, lambda: spark.sql("SELECT * FROM jlake.db.events WHERE k = 4"))
    assert got == [] and ours["tasks"] == 0
    got, _, _ = both(spark, lambda: spark.sql("SELECT k FROM jlake.db.events WHERE s = 'u9'"))
    assert got == [(9,)]


@pytest.mark.core
def test_renamed_and_readded_columns_are_matched_by_field_id(spark) -> None:
    t = "lake.db.evolving"
    create_events(spark, t)
    spark.sql(f"ALTER TABLE {t} RENAME COLUMN k TO key")
    spark.sql(f"ALTER TABLE {t} DROP COLUMN s")
    spark.sql(f"ALTER TABLE {t} ADD COLUMN s STRING")
    spark.sql(f"ALTER TABLE {t} SET TBLPROPERTIES ('write.parquet.bloom-filter-enabled.column.s' = 'true')")
    spark.sql(f"INSERT INTO {t} VALUES (1, named_struct('a', 1, 'b', 'x'), 'u3')")
    # Written before the rename: the files' column is `k`, found by its id.
    got, _, _ = both(spark, lambda: spark.table(t).where("key = 3003"))
    assert [r[0] for r in got] == [3003]
    got, ours, _ = both(spark, lambda: spark.table(t).where("key = 4"))
    assert got == [] and ours["tasks"] == 0
    # The re-added `s` is another column: the old files' `s` (u3 is there) is not it.
    got, _, _ = both(spark, lambda: spark.table(t).where("s = 'u3'"))
    assert [r[0] for r in got] == [1]
    got, _, _ = both(spark, lambda: spark.table(t).where("s = 'u6'"))
    assert got == []


def test_type_promotion_hashes_by_the_files_type(spark) -> None:
    t = "lake.db.promoted"
    spark.sql(f"DROP TABLE IF EXISTS {t}")
    spark.sql(f"CREATE TABLE {t} (k INT, f FLOAT) USING iceberg TBLPROPERTIES ({bloom_properties(['k', 'f'])})")
    spark.sql(f"INSERT INTO {t} SELECT CAST(id * 3 AS INT), CAST(id AS FLOAT) / 4 FROM range(2000)")
    spark.sql(f"ALTER TABLE {t} ALTER COLUMN k TYPE BIGINT")
    spark.sql(f"ALTER TABLE {t} ALTER COLUMN f TYPE DOUBLE")
    spark.sql(f"INSERT INTO {t} VALUES (6000000000, 0.1D)")
    for where, n in [
        ("k = 300", 1),
        ("k = 6000000000", 1),
        ("k = 4", 0),
        ("k = 4294967299", 0),
        ("f = 0.25", 1),
        ("f = 0.1", 1),
    ]:
        got, _, _ = both(spark, lambda w=where: spark.table(t).where(w))
        assert len(got) == n, where
    _, ours, _ = both(spark, lambda: spark.table(t).where("k = 4"))
    assert ours["tasks"] == 0, ours


@pytest.mark.cluster
@pytest.mark.core
@pytest.mark.parametrize("format_version", [1, 2, 3])
def test_deletes_still_apply(spark, format_version: int) -> None:
    """v1 rewrites files (copy-on-write); v2 writes position delete files, v3 deletion vectors."""
    t = f"lake.db.deleted_v{format_version}"
    create_events(spark, t, format_version)
    with spark_conf(spark, ON):
        spark.sql(f"DELETE FROM {t} WHERE k IN (3003, 9009) OR s = 'u12'")
        spark.sql(f"UPDATE {t} SET s = 'changed' WHERE k = 15")
    for where, n in [
        ("k = 3003", 0),
        ("k = 3006", 1),
        ("s = 'u12'", 0),
        ("s = 'changed'", 1),
        ("k = 15", 1),
        ("k = 4", 0),
    ]:
        got, ours, _ = both(spark, lambda w=where: spark.table(t).where(w))
        assert len(got) == n, where
    assert len(both(spark, lambda: spark.table(t))[0]) == ROWS_PER_FILE * FILES - 3


@pytest.mark.core
def test_time_travel_and_branches(spark) -> None:
    t = "lake.db.travel"
    create_events(spark, t)
    first = spark.sql(f"SELECT snapshot_id, committed_at FROM {t}.snapshots ORDER BY committed_at").collect()
    spark.sql(f"ALTER TABLE {t} CREATE BRANCH dev")
    spark.sql(f"INSERT INTO {t}.branch_dev VALUES (4, 'u4', named_struct('a', 4, 'b', 'b4'))")
    spark.sql(f"DELETE FROM {t} WHERE k = 3")
    oldest, at = first[0].snapshot_id, first[0].committed_at
    cases = {
        "version": (lambda: spark.sql(f"SELECT * FROM {t} VERSION AS OF {oldest} WHERE k IN (3, 4, 9003)"), [3]),
        # Spark 3.5 hands catalog tables no time-travel option; Iceberg's own is snapshot-id there.
        "option": (lambda: spark.read.option(TRAVEL_OPTION, oldest).table(t).where("k IN (3, 4)"), [3]),
        "timestamp": (lambda: spark.sql(f"SELECT * FROM {t} TIMESTAMP AS OF '{at}' WHERE k IN (3, 4)"), [3]),
        "branch": (lambda: spark.table(f"{t}.branch_dev").where("k IN (3, 4)"), [3, 4]),
        "branch option": (lambda: spark.read.option("branch", "dev").table(t).where("k = 4"), [4]),
        "main": (lambda: spark.table(t).where("k IN (3, 4)"), []),
    }
    for name, (query, keys) in cases.items():
        got, _, _ = both(spark, query)
        assert sorted(r[0] for r in got) == keys, name


def test_metadata_tables_and_columns_are_left_alone(spark, events: str) -> None:
    files = both(
        spark, lambda: spark.sql(f"SELECT file_path FROM {events}.files WHERE record_count = {ROWS_PER_FILE}")
    )[0]
    assert len(files) == FILES
    one = files[0][0]
    got, _, _ = both(spark, lambda: spark.sql(f"SELECT k, _pos FROM {events} WHERE _file = '{one}' AND _pos = 0"))
    assert len(got) == 1
    got, _, _ = both(spark, lambda: spark.sql(f"SELECT k FROM {events} WHERE _file = '{one}' AND k = 4"))
    assert got == []


def test_off_is_iceberg_alone(spark, events: str) -> None:
    """Without the conf, with bloom pruning off for the session, or for the read, Iceberg plans every file it kept."""

    def tasks(conf: dict[str, str], **options: str) -> int:
        with spark_conf(spark, conf):
            df = spark.read.options(**options).table(events).where("k = 4")
            df.collect()
            return bp.scan_metrics(df)["tasks"]

    off = tasks(OFF)
    assert off > 0
    assert tasks({**ON, "spark.bloomparquet.read.enabled": "false"}) == off
    assert tasks(ON, **{"bloom.enabled": "false"}) == off
    assert tasks(ON) == 0


@pytest.mark.cluster
def test_key_sets_the_driver_holds_prune_a_join_side(spark, events: str) -> None:
    """A join (or IN subquery, a semi join) with keys held in the driver reads them while planning:
    the Iceberg side keeps only the files whose filters may hold one of them."""
    keys = spark.createDataFrame([(3003,), (4,), (30003,)], "k BIGINT")
    keys.createOrReplaceTempView("held_keys")
    cases = {
        "inner": (lambda: spark.table(events).join(keys, "k"), 2),
        "semi": (lambda: spark.table(events).join(keys, "k", "left_semi"), 2),
        "IN subquery": (lambda: spark.sql(f"SELECT * FROM {events} WHERE k IN (SELECT k FROM held_keys)"), 2),
        "right outer": (lambda: keys.join(spark.table(events), "k", "left_outer"), 3),
        "misses only": (lambda: spark.table(events).join(spark.createDataFrame([(4,), (5,)], "k BIGINT"), "k"), 0),
    }
    for name, (query, n) in cases.items():
        got, ours, alone = both(spark, query)
        assert len(got) == n, name
        assert ours["tasks"] < alone["tasks"] or name == "right outer", (name, ours, alone)
    _, ours, _ = both(spark, cases["misses only"][0])
    assert ours["tasks"] == 0 and ours["bloomFilesPruned"] == ours["bloomFilesTotal"] > 0, ours
    # Off: spark.bloomparquet.keySet.maxBytes=0.
    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": "0"}):
        _, ours, alone = both(spark, cases["misses only"][0])
    assert ours["tasks"] == alone["tasks"] > 0, (ours, alone)


@pytest.mark.cluster
def test_key_sets_a_job_reads_prune_a_join_side(spark, events: str) -> None:
    """Keys in a table (Spark estimates it small): read while planning by a job of their own, the same
    snapshot the join reads; a plan that could give other rows a second time (rand) is not read."""
    spark.sql("DROP TABLE IF EXISTS lake.db.table_keys")
    spark.sql("CREATE TABLE lake.db.table_keys (k BIGINT) USING iceberg")
    spark.createDataFrame([(3003,), (4,), (30003,)], "k BIGINT").writeTo("lake.db.table_keys").append()
    keys = spark.table("lake.db.table_keys")
    cases = {
        "inner": (lambda: spark.table(events).join(keys, "k"), 2, True),
        "IN subquery": (
            lambda: spark.sql(f"SELECT * FROM {events} WHERE k IN (SELECT k FROM lake.db.table_keys)"),
            2,
            True,
        ),
        "misses only": (lambda: spark.table(events).join(keys.where("k % 3 != 0"), "k"), 0, True),
        "nondeterministic": (lambda: spark.table(events).join(keys.where("rand() < 1.5 + k * 0"), "k"), 2, False),
    }
    for name, (query, n, pruned) in cases.items():
        got, ours, alone = both(spark, query)
        assert len(got) == n, name
        assert (ours["tasks"] < alone["tasks"]) == pruned, (name, ours, alone)
    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": "16"}):  # smaller than the table: not read
        _, ours, alone = both(spark, cases["misses only"][0])
    assert ours["tasks"] == alone["tasks"] > 0, (ours, alone)


@pytest.mark.parametrize("renamed", [False, True], ids=["as-written", "renamed-since"])
def test_keys_in_a_table_are_not_read_for_files_without_filters(spark, renamed: bool) -> None:
    """An Iceberg side whose files have no filter on the key (scattered keys: statistics can't prune either)
    is not worth a second read of the keys: the query runs the jobs Iceberg alone runs, no more. Its files
    are sampled by field id, so a key column renamed since they were written is judged the same."""
    t = "lake.db.unfiltered_scattered"
    written = "key" if renamed else "k"
    spark.sql(f"DROP TABLE IF EXISTS {t}")
    spark.sql(f"CREATE TABLE {t} ({written} BIGINT, v STRING) USING iceberg")
    for i in range(3):
        spark.range(i * 5000, (i + 1) * 5000).selectExpr(f"id * 7919 % 100003 AS {written}", "'x' AS v").coalesce(
            1
        ).writeTo(t).append()
    if renamed:
        spark.sql(f"ALTER TABLE {t} RENAME COLUMN key TO k")
    spark.sql("DROP TABLE IF EXISTS lake.db.few_table_keys")
    spark.sql("CREATE TABLE lake.db.few_table_keys (k BIGINT) USING iceberg")
    # One file: nothing on that side to rule out, so the other side's keys are never read to prune it.
    spark.createDataFrame([(7919,), (4,)], "k BIGINT").coalesce(1).writeTo("lake.db.few_table_keys").append()

    def jobs(conf: dict[str, str]) -> int:
        tracker = spark.sparkContext.statusTracker()
        group = f"keys-{conf['spark.bloomparquet.iceberg.enabled']}"
        spark.sparkContext.setJobGroup(group, group)
        try:
            with spark_conf(spark, conf):
                spark.table(t).join(spark.table("lake.db.few_table_keys"), "k").collect()
        finally:
            spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)
        return len(tracker.getJobIdsForGroup(group))

    got, ours, alone = both(spark, lambda: spark.table(t).join(spark.table("lake.db.few_table_keys"), "k"))
    assert [r[0] for r in got] == [7919] and ours["tasks"] == alone["tasks"], (ours, alone)
    assert jobs(ON) == jobs(OFF)


def test_every_type_iceberg_writes_a_filter_for(spark) -> None:
    """Each type as Iceberg stores it (timestamps in microseconds, decimals by precision as INT32, INT64 or
    fixed bytes): a present value is found, and an absent one inside every file's range rules them all out."""
    t = "lake.db.typed"
    columns = {
        "i": "INT", "l": "BIGINT", "d": "DATE", "ts": "TIMESTAMP", "ntz": "TIMESTAMP_NTZ", "d9": "DECIMAL(9, 2)",
        "d18": "DECIMAL(18, 3)", "d38": "DECIMAL(38, 10)", "s": "STRING", "b": "BINARY", "f": "FLOAT", "x": "DOUBLE",
    }  # fmt: skip
    spark.sql(f"DROP TABLE IF EXISTS {t}")
    ddl = ", ".join(f"{c} {ty}" for c, ty in columns.items())
    spark.sql(f"CREATE TABLE {t} ({ddl}) USING iceberg TBLPROPERTIES ({bloom_properties([*columns])})")
    for part in range(3):
        spark.sql(f"""INSERT INTO {t} SELECT CAST(id * 2 AS INT), id * 2, date_add(DATE'2020-01-01', CAST(id * 2 AS INT)),
            TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id * 2),
            TIMESTAMP_NTZ'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id * 2),
            CAST(id * 2 AS DECIMAL(9, 2)), CAST(id * 2 AS DECIMAL(18, 3)), CAST(id * 2 AS DECIMAL(38, 10)),
            concat('s', id * 2), CAST(concat('b', id * 2) AS BINARY), CAST(id * 2 AS FLOAT), CAST(id * 2 AS DOUBLE)
            FROM range({part}, 3000, 3)""")
    probes = {
        "i = {v}": 0, "l = {v}": 0, "d = date_add(DATE'2020-01-01', {v})": 0,
        "ts = TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, {v})": 0,
        "ntz = TIMESTAMP_NTZ'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, {v})": 0,
        "d9 = {v}": 0, "d18 = {v}": 0, "d38 = {v}": 0, "s = 's{v}'": 0, "b = CAST('b{v}' AS BINARY)": 0,
        "f = {v}": 0, "x = {v}": 0,
    }  # fmt: skip
    for probe in probes:
        got, _, _ = both(spark, lambda p=probe: spark.table(t).where(p.format(v=2 * 1500)))
        assert len(got) == 1, probe
        got, ours, alone = both(spark, lambda p=probe: spark.table(t).where(p.format(v=2 * 1500 + 1)))
        assert got == [], probe
        probes[probe] = ours["tasks"]
    assert all(n == 0 for n in probes.values()), probes


def test_hidden_partitioning_and_partition_evolution(spark) -> None:
    """Partitioned by a transform (bucket), then by another (days); a tag on the first layout. Iceberg's
    planning prunes partitions first; bloom filters rule out the files left in each layout."""
    t = "lake.db.partitioned"
    spark.sql(f"DROP TABLE IF EXISTS {t}")
    spark.sql(
        f"CREATE TABLE {t} (k BIGINT, s STRING, at TIMESTAMP) USING iceberg PARTITIONED BY (bucket(4, s)) "
        f"TBLPROPERTIES ({bloom_properties(['k'])})"
    )
    insert = f"INSERT INTO {t} SELECT id * 3, concat('u', id % 10), TIMESTAMP'2024-01-01 00:00:00' + make_interval(0, 0, 0, CAST(id % 3 AS INT), 0, 0, 0) FROM range({{}}, {{}})"
    spark.sql(insert.format(0, 3000))
    spark.sql(f"ALTER TABLE {t} CREATE TAG first")
    spark.sql(f"ALTER TABLE {t} REPLACE PARTITION FIELD bucket(4, s) WITH days(at)")
    spark.sql(insert.format(3000, 6000))
    cases = {
        "present, old layout": ("k = 300", 1), "present, new layout": ("k = 9000", 1), "absent": ("k = 301", 0),
        "absent in a partition": ("k = 301 AND s = 'u1'", 0), "present in its partition": ("k = 303 AND s = 'u1'", 1),
        "day": ("k = 9003 AND at = TIMESTAMP'2024-01-02 00:00:00'", 1),
    }  # fmt: skip
    for name, (where, n) in cases.items():
        got, ours, _ = both(spark, lambda w=where: spark.table(t).where(w))
        assert len(got) == n, name
        assert n > 0 or ours["tasks"] == 0, (name, ours)
    got, ours, _ = both(
        spark, lambda: spark.sql(f"SELECT * FROM {t} VERSION AS OF 'first' WHERE k IN (300, 9000, 301)")
    )
    assert [r[0] for r in got] == [300]
    got, _, _ = both(
        spark, lambda: spark.read.option("timestampAsOf", "2999-01-01 00:00:00").table(t).where("k = 9000")
    )
    assert len(got) == 1


@pytest.mark.core
def test_a_kept_file_reads_only_its_kept_row_groups(spark, events: str) -> None:
    """A file of several row groups that filters keep: Iceberg splits it at its row groups' starts, and
    only the kept row groups' splits are read (Iceberg's ``numSplits``: the splits its readers opened)."""
    got, ours, alone = both(spark, lambda: spark.table(events).where("s = 'u3003'"))
    assert [r[0] for r in got] == [3003]
    assert ours["numSplits"] == 1 < alone["numSplits"], (ours, alone)
    # Every row of the file: nothing cut.
    got, ours, alone = both(
        spark, lambda: spark.table(events).where(f"k >= {3 * ROWS_PER_FILE} AND k < {6 * ROWS_PER_FILE}")
    )
    assert len(got) == ROWS_PER_FILE and ours["numSplits"] == alone["numSplits"], (ours, alone)
