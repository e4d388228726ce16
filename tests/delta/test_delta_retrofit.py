"""Retrofit of Delta Lake tables (``bp.retrofit(..., format="delta")``, ``bloomparquet retrofit --delta``):
filters added to the files of the latest version without re-encoding a page, each into a new file, the new
files committed through Delta's transaction API as a ``dataChange=false`` rewrite; rows, statistics,
deletion vectors and partition values unchanged; a concurrent UPDATE or DELETE makes one of the two fail
with Delta's conflict error, never a lost or duplicated row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters

from ..spark_conf import rows, spark_conf
from .tables import absent_key, keys_frame, race_retrofit, same_rows
from .test_delta_writes import current_files, filtered_columns

pytestmark = pytest.mark.spark


def plain_table(spark, path: Path, *, partitioned: bool = False, **props: str) -> None:
    """A Delta table without bloom filters, deletion vectors on."""
    writer = keys_frame(spark, 30_000, 6).write.format("delta").option("delta.enableDeletionVectors", "true")
    if partitioned:
        writer = writer.partitionBy("g")
    writer.options(**props).save(str(path))
    assert filtered_columns(current_files(spark, path)) == {frozenset()}


def log_actions(path: Path, version: int) -> list[dict[str, Any]]:
    entry = path / "_delta_log" / f"{version:020d}.json"
    return [json.loads(line) for line in entry.read_text().splitlines()]


def table_rows(spark, path: Path, version: int | None = None) -> list[tuple[Any, ...]]:
    reader = spark.read.format("delta")
    if version is not None:
        reader = reader.option("versionAsOf", version)
    return rows(reader.load(str(path)))


@pytest.mark.core
def test_retrofit_commits_a_rewrite_that_keeps_rows_stats_and_deletion_vectors(spark, tmp_path: Path) -> None:
    path = tmp_path / "plain"
    plain_table(spark, path, partitioned=True)
    deleted = [r.k for r in spark.read.format("delta").load(str(path)).limit(3).collect()]
    spark.sql(f"DELETE FROM delta.`{path}` WHERE k IN ({', '.join(map(str, deleted))})")
    before_version = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").agg({"version": "max"}).collect()[0][0]
    before = table_rows(spark, path)

    results = bp.retrofit(spark, str(path), ["k", "email"], fpp=0.01, format="delta")
    assert {r["status"] for r in results} == {"retrofitted"} and len(results) == len(current_files(spark, path))
    (version,) = {r["version"] for r in results}
    assert version == before_version + 1
    assert table_rows(spark, path) == before  # deleted rows stay deleted
    assert not set(deleted) & {r[0] for r in before}
    assert filtered_columns(current_files(spark, path)) == {frozenset({"k", "email"})}

    actions = log_actions(path, version)
    adds = {a["add"]["path"]: a["add"] for a in actions if "add" in a}
    removes = {a["remove"]["path"]: a["remove"] for a in actions if "remove" in a}
    assert len(adds) == len(removes) == len(results)
    assert not any(a["dataChange"] for a in adds.values()) and not any(r["dataChange"] for r in removes.values())
    (commit,) = [a["commitInfo"] for a in actions if "commitInfo" in a]
    assert commit["operation"] == "OPTIMIZE" and commit["tags"]["bloomparquet.retrofit"] == "true", commit
    with_dv = 0
    for new_path, add in adds.items():
        old_path = new_path.replace(new_path.split("/")[-1], new_path.split("/")[-1].split("-", 6)[-1])
        old = removes[old_path]
        assert json.loads(add["stats"]) == json.loads(old.get("stats") or add["stats"])
        assert add["partitionValues"] == old["partitionValues"] and add["partitionValues"]["g"]
        assert add.get("deletionVector") == old.get("deletionVector")
        with_dv += "deletionVector" in add
        assert (path / new_path).stat().st_size == add["size"]
    assert with_dv >= 1  # the DELETE's deletion vectors moved to the new files

    miss = absent_key(path)
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"k = {miss}"))
    assert got == [] and m["bloomFilesPruned"] == m["bloomFilesTotal"] > 0, m
    for k in (before[0][0], deleted[0]):
        same_rows(spark, lambda k=k: spark.read.format("delta").load(str(path)).where(f"k = {k}"))
    # Time travel still reads the old files; a second run has nothing to do and commits nothing.
    assert table_rows(spark, path, before_version) == before
    again = bp.retrofit(spark, str(path), ["k", "email"], format="delta")
    assert {r["status"] for r in again} == {"unchanged"} and {r["version"] for r in again} == {version}


@pytest.mark.core
def test_retrofit_names_logical_columns_under_column_mapping(spark, tmp_path: Path) -> None:
    path = tmp_path / "mapped"
    plain_table(
        spark,
        path,
        **{"delta.columnMapping.mode": "name", "delta.minReaderVersion": "2", "delta.minWriterVersion": "5"},
    )
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN k TO key")
    spark.sql(f"ALTER TABLE delta.`{path}` ADD COLUMN later STRING")  # no file has it: skipped, not refused
    bp.retrofit(spark, str(path), ["key", "later"], format="delta")
    (columns,) = filtered_columns(current_files(spark, path))
    (physical,) = columns
    assert physical.startswith("col-"), columns
    miss = absent_key(path, column=physical)
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"key = {miss}"))
    assert got == [] and m["bloomFilesPruned"] == m["bloomFilesTotal"] > 0, m
    with pytest.raises(Exception, match="unknown column 'nope'; the table's columns are key, email, g, later"):
        bp.retrofit(spark, str(path), ["nope"], format="delta")


@pytest.mark.core
def test_a_concurrent_update_fails_the_retrofit_and_nothing_is_left(spark, tmp_path: Path) -> None:
    """Retrofit prepared (new files written) before an UPDATE commits: its commit fails with Delta's conflict
    error and removes its new files; the UPDATE's rows stand, none lost or duplicated."""
    path = tmp_path / "race"
    plain_table(spark, path)
    key = spark.read.format("delta").load(str(path)).limit(1).collect()[0].k
    jvm = spark.sparkContext._jvm
    columns = jvm.java.util.ArrayList()
    columns.add("k")
    pending = jvm.io.bloomparquet.delta.DeltaRetrofit.prepareForPython(
        spark._jsparkSession, str(path), columns, 0.01, False
    )
    targets = [Path(r["target"].removeprefix("file:")) for r in pending.resultsForPython() if "target" in r]
    assert targets and all(t.exists() for t in targets)
    spark.sql(f"UPDATE delta.`{path}` SET email = 'updated' WHERE k = {key}")
    expected = table_rows(spark, path)
    with pytest.raises(Exception, match="Concurrent|conflict|DELTA_CONCURRENT"):
        pending.commit()
    assert not any(t.exists() for t in targets)
    assert table_rows(spark, path) == expected
    assert [r for r in expected if r[0] == key][0][1] == "updated" and len(expected) == 30_000
    assert filtered_columns(current_files(spark, path)) == {frozenset()}


@pytest.mark.parametrize("dml", ["UPDATE", "DELETE"])
def test_racing_writers_never_lose_or_duplicate_a_row(spark, tmp_path: Path, dml: str) -> None:
    """Retrofit and an UPDATE or DELETE run at once, either order: each that succeeds is applied exactly once."""
    path = tmp_path / f"threads_{dml}"
    plain_table(spark, path)
    original = table_rows(spark, path)
    key = original[len(original) // 2][0]
    statement = (
        f"UPDATE delta.`{path}` SET email = 'raced' WHERE k = {key}"
        if dml == "UPDATE"
        else f"DELETE FROM delta.`{path}` WHERE k = {key}"
    )
    outcome = race_retrofit(spark, path, statement)
    assert outcome["retrofit"] is None or outcome["statement"] is None, outcome
    if outcome["statement"] is None:
        expected = [
            r if r[0] != key else r[:1] + ("raced",) + r[2:] for r in original if dml == "UPDATE" or r[0] != key
        ]
    else:
        expected = original
    assert table_rows(spark, path) == expected
    assert sum(r[0] == key for r in table_rows(spark, path)) == (1 if dml == "UPDATE" or outcome["statement"] else 0)
    if outcome["retrofit"] is None:  # every file the retrofit committed has its filter
        done = [f for f in current_files(spark, path) if f.name.startswith("bloom-")]
        assert done and all(read_bloom_filters(f) for f in done)


def test_a_retrofit_keeps_the_tables_digest_current(spark, tmp_path: Path) -> None:
    """A Delta table with a bloom digest: the retrofit's commit is followed by a digest covering the new
    files, so a point miss is decided with no footer read."""
    path = tmp_path / "digested"
    plain_table(spark, path)
    assert bp.build_digest(spark, str(path), "k")["entries"] == 0
    assert {r["status"] for r in bp.retrofit(spark, str(path), "k", format="delta")} == {"retrofitted"}
    again = bp.build_digest(spark, str(path), "k")
    assert again["bytes_read"] == 0 and again["files_reused"] == again["files"] and again["entries"] > 0, again
    miss = absent_key(path)
    with spark_conf(spark, {"spark.bloomparquet.read.cache": "false"}):
        got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"k = {miss}"))
    files = len(current_files(spark, path))
    assert got == [] and m["bloomFilesPruned"] == files and m["bloomFootersRead"] == 0, m
    assert m["bloomDigestFilesNotCovered"] == 0, m


def test_cli_retrofits_a_delta_table(spark, tmp_path: Path) -> None:
    path = tmp_path / "cli"
    plain_table(spark, path)
    out = subprocess.run(
        [sys.executable, "-m", "bloomparquet.cli", "retrofit", str(path), "--delta", "--columns", "email", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    files = json.loads(out.stdout[out.stdout.index("{") :])["files"]
    assert {f["status"] for f in files} == {"retrofitted"} and all(f["target"] for f in files)
    assert filtered_columns(current_files(spark, path)) == {frozenset({"email"})}


def test_bad_format_is_refused(spark) -> None:
    with pytest.raises(ValueError, match="format = 'hudi': expected 'parquet', 'delta' or 'iceberg'"):
        bp.retrofit(spark, "/nowhere", ["k"], format="hudi")


def test_a_failed_retrofit_commits_nothing_and_leaves_no_file(spark, tmp_path: Path) -> None:
    path = tmp_path / "broken"
    plain_table(spark, path)
    version = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").agg({"version": "max"}).collect()[0][0]
    victim = current_files(spark, path)[0]
    victim.write_bytes(victim.read_bytes()[:-100])  # its footer cut off: its task fails
    with pytest.raises(Exception, match="Parquet|footer|magic|length"):
        bp.retrofit(spark, str(path), ["k"], format="delta")
    assert [p.name for p in path.iterdir() if p.name.startswith(("bloom-", ".bloom"))] == []
    assert not list(path.glob(".*bloomparquet-retrofit*"))
    assert spark.sql(f"DESCRIBE HISTORY delta.`{path}`").agg({"version": "max"}).collect()[0][0] == version
