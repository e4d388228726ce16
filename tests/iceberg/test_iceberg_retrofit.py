"""Retrofit of Iceberg tables (``bp.retrofit(spark, table, columns, format="iceberg")``): filters added to the
data files of the current snapshot without re-encoding a page, each into a new file, committed as one
``replace`` snapshot through Iceberg's ``RewriteFiles``; columns by field id; rows, statistics and deletes
unchanged; a file a delete applies to left as it is; a concurrent DELETE, UPDATE or MERGE makes one of the
two fail with Iceberg's validation error, never a lost or resurrected row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters

from ..races import at_once
from ..spark_conf import rows, spark_conf
from .conftest import CATALOG
from .tables import FILES, ROWS_PER_FILE, append_keys, create_events
from .test_iceberg_reads import OFF, both

pytestmark = pytest.mark.spark

# Iceberg's validation errors when a commit races another over the same files.
CONFLICTS = ("Missing required files", "found new", "Found conflicting", "missing data files", "ValidationException")


def table_rows(spark, table: str) -> list[tuple]:
    with spark_conf(spark, OFF):
        return rows(spark.table(table))


def data_files(spark, table: str) -> list[Path]:
    return [Path(r[0].removeprefix("file:")) for r in spark.sql(f"SELECT file_path FROM {table}.files").collect()]


def file_entries(spark, table: str) -> list[str]:
    """What the table's entries say of its data files, path and size aside."""
    columns = "record_count, column_sizes, value_counts, null_value_counts, lower_bounds, upper_bounds, split_offsets"
    return sorted(str(r) for r in spark.sql(f"SELECT {columns} FROM {table}.files").collect())


def filtered_columns(files: list[Path]) -> set[frozenset[str]]:
    """The set of leaf columns with a filter in every row group, one entry per distinct set among ``files``."""
    found = []
    for f in files:
        filters = read_bloom_filters(f)
        groups = {rg for rg, _ in filters}
        found.append(frozenset(c for c in {c for _, c in filters} if all((g, c) in filters for g in groups)))
    return set(found)


def retrofit(spark, table: str, columns: list[str]) -> list[dict]:
    return bp.retrofit(spark, table, columns, format="iceberg")


@pytest.mark.cluster
@pytest.mark.core
@pytest.mark.parametrize("format_version", [1, 2])
def test_retrofit_adds_filters_and_reads_prune(spark, format_version: int) -> None:
    """A table written without filters, a column renamed first (the files hold it under its old name)."""
    t = f"lake.db.retro_v{format_version}"
    create_events(spark, t, format_version, filtered=())
    spark.sql(f"ALTER TABLE {t} RENAME COLUMN k TO key")
    spark.sql(f"ALTER TABLE {t} ADD COLUMN later STRING")  # no file has it: skipped, not refused
    before = table_rows(spark, t)
    stats = file_entries(spark, t)
    results = retrofit(spark, t, ["key", "s", "st.a", "later"])
    assert [r["status"] for r in results] == ["retrofitted"] * FILES, results
    assert {r["columns"] for r in results} == {"k,s,st.a"}, results
    version = results[0]["version"]
    snapshot = spark.sql(
        f"SELECT snapshot_id, operation, summary FROM {t}.snapshots ORDER BY committed_at DESC"
    ).first()
    assert snapshot.snapshot_id == version and snapshot.operation == "replace", snapshot
    assert snapshot.summary["bloomparquet.retrofit"] == "true"
    assert table_rows(spark, t) == before
    # The entries are the old ones with a new path and size: statistics and split offsets unchanged.
    assert file_entries(spark, t) == stats
    assert filtered_columns(data_files(spark, t)) == {frozenset({"k", "s", "st.a"})}
    got, ours, alone = both(spark, lambda: spark.table(t).where("key = 4"))
    assert got == [] and ours["tasks"] == 0 < alone["tasks"], (ours, alone)
    got, ours, alone = both(spark, lambda: spark.table(t).where("s = 'u3003' OR st.a = 1"))
    assert len(got) == 3 and ours["tasks"] >= 1, (ours, alone)
    # Once more: every chunk has its filter, nothing to commit.
    again = retrofit(spark, t, ["key"])
    assert {r["status"] for r in again} == {"unchanged"} and again[0]["version"] == version


def test_files_of_every_partition_spec_keep_their_partition(spark) -> None:
    """Partition evolution: files written under two specs, each new entry under its file's own spec."""
    t = "lake.db.retro_partitions"
    create_events(spark, t, 2, filtered=())
    spark.sql(f"ALTER TABLE {t} ADD PARTITION FIELD bucket(4, k)")
    append_keys(spark, t, 60_000, 72_000)
    before = table_rows(spark, t)
    entries = file_entries(spark, t)
    specs = sorted(r[0] for r in spark.sql(f"SELECT spec_id FROM {t}.files").collect())
    results = retrofit(spark, t, ["s"])
    assert {r["status"] for r in results} == {"retrofitted"} and len(results) == len(specs) > FILES
    assert sorted(r[0] for r in spark.sql(f"SELECT spec_id FROM {t}.files").collect()) == specs
    partitions = spark.sql(f"SELECT partition FROM {t}.files").collect()
    assert table_rows(spark, t) == before and file_entries(spark, t) == entries and len(partitions) == len(specs)
    got, ours, alone = both(spark, lambda: spark.table(t).where("s = 'u60003' OR s = 'u4'"))
    assert len(got) == 1 and ours["tasks"] <= alone["tasks"], (ours, alone)
    got, ours, alone = both(spark, lambda: spark.table(t).where("s = 'u4'"))
    assert got == [] and ours["tasks"] == 0 < alone["tasks"], (ours, alone)


@pytest.mark.core
def test_files_a_delete_applies_to_are_left_as_they_are(spark) -> None:
    """Position deletes name their file by path: such files are not replaced."""
    t = "lake.db.retro_deleted"
    create_events(spark, t, 2, filtered=())
    spark.sql(f"DELETE FROM {t} WHERE k IN (3003, 9009)")
    spark.sql(f"UPDATE {t} SET s = 'changed' WHERE k = 15")
    before = table_rows(spark, t)
    results = retrofit(spark, t, ["k"])
    statuses = sorted(r["status"] for r in results)
    touched = {3003 // (3 * ROWS_PER_FILE), 9009 // (3 * ROWS_PER_FILE), 0}
    # The UPDATE's new row went into a file of its own, which no delete names.
    assert statuses.count("deletes-apply") == len(touched) and statuses.count("retrofitted") == FILES - len(touched) + 1
    assert table_rows(spark, t) == before
    for where, n in [("k = 3003", 0), ("k = 9009", 0), ("k = 15", 1), ("s = 'changed'", 1), ("k = 6006", 1)]:
        got, _, _ = both(spark, lambda w=where: spark.table(t).where(w))
        assert len(got) == n, where
    # A miss in a file retrofitted: pruned. In one left as it is: read, as Iceberg alone reads it.
    got, ours, alone = both(spark, lambda: spark.table(t).where("k = 18001"))
    assert got == [] and ours["tasks"] == 0 < alone["tasks"], (ours, alone)
    got, ours, alone = both(spark, lambda: spark.table(t).where("k = 4"))
    assert got == [] and ours["tasks"] >= 1, (ours, alone)


@pytest.mark.core
@pytest.mark.parametrize("format_version", [1, 2])
def test_a_delete_committed_while_the_files_are_written_fails_the_retrofit(spark, format_version: int) -> None:
    """Retrofit prepared (new files written) before a DELETE commits: copy-on-write (v1) removed a file it
    replaces, merge-on-read (v2) added a delete for one; either way Iceberg's validation fails the commit,
    the new files are removed and the DELETE stands."""
    t = f"lake.db.retro_race_v{format_version}"
    create_events(spark, t, format_version, filtered=())
    jvm = spark.sparkContext._jvm
    columns = jvm.java.util.ArrayList()
    columns.add("k")
    pending = jvm.io.bloomparquet.iceberg.IcebergRetrofit.prepareForPython(
        spark._jsparkSession, t, columns, 0.01, False
    )
    targets = [Path(r["target"].removeprefix("file:")) for r in pending.resultsForPython() if "target" in r]
    assert len(targets) == FILES and all(p.exists() for p in targets)
    spark.sql(f"DELETE FROM {t} WHERE k = 3003")
    expected = table_rows(spark, t)
    with pytest.raises(Exception, match="|".join(CONFLICTS)):
        pending.commit()
    assert not any(p.exists() for p in targets)
    assert table_rows(spark, t) == expected and len(expected) == FILES * ROWS_PER_FILE - 1
    assert filtered_columns(data_files(spark, t)) == {frozenset()}


@pytest.mark.parametrize(
    "statement",
    [
        "DELETE FROM {t} WHERE k = 3003",
        "UPDATE {t} SET s = 'raced' WHERE k = 3003",
        "MERGE INTO {t} USING (SELECT 3003 AS k) src ON {t}.k = src.k WHEN MATCHED THEN UPDATE SET s = 'raced'",
    ],
)
def test_racing_writers_never_lose_or_resurrect_a_row(spark, statement: str) -> None:
    """Retrofit and a row-level command at once, either order: each that succeeds is applied exactly once."""
    t = "lake.db.retro_threads"
    create_events(spark, t, 2, filtered=())
    original = table_rows(spark, t)
    sql = statement.format(t=t)
    errors = at_once(retrofit=lambda: retrofit(spark, t, ["k"]), statement=lambda: spark.sql(sql))
    for e in errors.values():
        assert e is None or any(c in e for c in CONFLICTS), e
    if errors["statement"] is None:
        if sql.startswith("DELETE"):
            expected = [r for r in original if r[0] != 3003]
        else:
            expected = [r if r[0] != 3003 else (r[0], "raced", r[2]) for r in original]
    else:
        expected = original
    assert table_rows(spark, t) == expected
    if errors["retrofit"] is None:
        replaced = [f for f in data_files(spark, t) if f.name.startswith("bloom-")]
        assert replaced and all(read_bloom_filters(f) for f in replaced)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    keys=st.lists(st.integers(-500, 500), min_size=1, max_size=200, unique=True),
    files=st.integers(1, 4),
    probes=st.lists(st.integers(-520, 520), min_size=1, max_size=5),
    deleted=st.booleans(),
    format_version=st.sampled_from([1, 2]),
)
def test_any_table_reads_the_same_rows_after_retrofit(
    spark, keys: list[int], files: int, probes: list[int], deleted: bool, format_version: int
) -> None:
    """Any keys in any files, a delete or not: after retrofit, every lookup is Iceberg alone's and the rows' own."""
    t = "lake.db.retro_any"
    spark.sql(f"DROP TABLE IF EXISTS {t}")
    # Version 1 rewrites a file a DELETE touches; version 2 writes a position delete file.
    mode = ", 'write.delete.mode' = 'merge-on-read'" if format_version >= 2 else ""
    spark.sql(
        f"CREATE TABLE {t} (k BIGINT, s STRING) USING iceberg TBLPROPERTIES ('format-version' = '{format_version}'{mode})"
    )
    for i in range(files):
        chunk = keys[i::files]
        if chunk:
            spark.createDataFrame([(k, f"v{k}") for k in chunk], "k BIGINT, s STRING").coalesce(1).writeTo(t).append()
    kept = set(keys)
    if deleted:
        spark.sql(f"DELETE FROM {t} WHERE k = {keys[0]}")
        kept.discard(keys[0])
    results = retrofit(spark, t, ["k", "s"])
    assert {r["status"] for r in results} <= {"retrofitted", "deletes-apply"}, results
    listed = ", ".join(map(str, probes))
    strings = ", ".join(f"'v{p}'" for p in probes)
    for where in (f"k IN ({listed})", f"s IN ({strings})", f"k = {probes[0]} OR s = 'v{probes[-1]}'"):
        got, _, _ = both(spark, lambda w=where: spark.table(t).where(w).select("k"))
        wanted = {p for p in probes if p in kept} if "OR" not in where else {probes[0], probes[-1]} & kept
        assert sorted(r[0] for r in got) == sorted(wanted), where


def test_format_3_is_refused_as_its_row_ids_would_change(spark) -> None:
    """Iceberg gives the files a commit adds new row ids: a copy of a file keeps its rows, not their ids."""
    t = "lake.db.retro_v3"
    create_events(spark, t, 3, filtered=())
    before = rows(spark.sql(f"SELECT _row_id, k FROM {t}"))
    with pytest.raises(Exception, match="format version 3 .* row lineage"):
        retrofit(spark, t, ["k"])
    assert rows(spark.sql(f"SELECT _row_id, k FROM {t}")) == before
    assert filtered_columns(data_files(spark, t)) == {frozenset()}


def test_as_sql_and_refusals(spark) -> None:
    t = "lake.db.retro_sql"
    create_events(spark, t, 2, filtered=())
    got = spark.sql(f"SELECT status, version FROM bloomparquet_retrofit('{t}', 's', 0.01, false, 'iceberg')").collect()
    assert {r.status for r in got} == {"retrofitted"} and len(got) == FILES
    assert filtered_columns(data_files(spark, t)) == {frozenset({"s"})}
    with pytest.raises(Exception, match="unknown column 'nope'; the table's columns are k, s, st"):
        retrofit(spark, t, ["nope"])
    with pytest.raises(Exception, match="TABLE_OR_VIEW_NOT_FOUND|cannot be found"):
        retrofit(spark, "lake.db.no_such_table", ["k"])


def test_cli_retrofits_an_iceberg_table(spark) -> None:
    """``bloomparquet retrofit TABLE --iceberg --conf ...``: its own session, the catalog given by --conf."""
    t = "lake.db.retro_cli"
    create_events(spark, t, 2, filtered=())
    # The catalog's warehouse holds db/retro_cli/data/<file> (the session's conf may have been set again since).
    warehouse = data_files(spark, t)[0].parents[3]
    catalog = [f"spark.sql.catalog.lake={CATALOG}", "spark.sql.catalog.lake.type=hadoop"]
    catalog.append(f"spark.sql.catalog.lake.warehouse={warehouse}")
    command = [sys.executable, "-m", "bloomparquet.cli", "retrofit", t, "--iceberg", "--columns", "s", "--json"]
    command += [arg for c in catalog for arg in ("--conf", c)] + ["--master", "local[1]"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    files = json.loads(out.stdout[out.stdout.index("{") :])["files"]
    assert {f["status"] for f in files} == {"retrofitted"} and len(files) == FILES
    spark.sql(f"REFRESH TABLE {t}")
    assert filtered_columns(data_files(spark, t)) == {frozenset({"s"})}
