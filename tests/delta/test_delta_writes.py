"""Delta Lake writes that carry bloom filters: a table's ``bloom.columns`` / ``bloom.fpp`` /
``bloom.fpp.<column>`` / ``bloom.ndv.<column>`` properties become parquet-java's settings for the
columns' physical names, and every writer of the table (``df.write``, INSERT, MERGE, UPDATE, DELETE
rewrites, OPTIMIZE) writes right-sized filters; the files they write prune, differential against
Delta's own reader."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from bloomparquet.reference import read_bloom_filters, xxh64_plain
from bloomparquet.tools.sizing import num_bytes

from ..spark_conf import spark_conf
from .tables import absent_key, keys_frame, same_rows

pytestmark = pytest.mark.spark


def current_files(spark, path: Path) -> list[Path]:
    """The data files of the table's latest version."""
    return [Path(f.removeprefix("file:")) for f in spark.read.format("delta").load(str(path)).inputFiles()]


def filtered_columns(files: list[Path]) -> set[frozenset[str]]:
    """Per file, the columns every one of its row groups has a filter for."""
    out = set()
    for f in files:
        by_rg: dict[int, set[str]] = {}
        for rg, column in read_bloom_filters(f):
            by_rg.setdefault(rg, set()).add(column)
        out.add(frozenset(set.intersection(*by_rg.values())) if by_rg else frozenset())
    return out


def properties(spark, path: Path) -> dict[str, str]:
    return {r.key: r.value for r in spark.sql(f"SHOW TBLPROPERTIES delta.`{path}`").collect()}


@pytest.mark.core
def test_every_writer_writes_filters(spark, tmp_path: Path) -> None:
    path = tmp_path / "writers"
    spark.sql(
        f"CREATE TABLE delta.`{path}` (k BIGINT, email STRING, g INT) USING delta "
        "TBLPROPERTIES ('bloom.columns' = 'k,email', 'bloom.fpp' = '0.01', 'delta.enableDeletionVectors' = 'false', "
        "'delta.checkpointInterval' = '3')"
    )
    keys_frame(spark, 40_000, 4).write.format("delta").mode("append").save(str(path))
    some = [r.k for r in spark.read.format("delta").load(str(path)).where("g = 4").limit(4).collect()]
    writers = [
        f"INSERT INTO delta.`{path}` VALUES (1, 'one@x.io', 1), (3, 'three@x.io', 3)",
        f"UPDATE delta.`{path}` SET email = 'changed' WHERE k = {some[0]}",
        f"MERGE INTO delta.`{path}` t USING (SELECT {some[1]} AS k UNION ALL SELECT 5 AS k) s ON t.k = s.k "
        "WHEN MATCHED THEN UPDATE SET email = 'merged' WHEN NOT MATCHED THEN INSERT (k, email, g) VALUES (s.k, 'new', 0)",
        f"DELETE FROM delta.`{path}` WHERE k = {some[2]}",  # deletion vectors off: the file is rewritten
        f"OPTIMIZE delta.`{path}`",
    ]
    for sql in writers:
        before = set(current_files(spark, path))
        spark.sql(sql)
        written = [f for f in current_files(spark, path) if f not in before]
        assert written, sql
        assert filtered_columns(written) == {frozenset({"k", "email"})}, sql
    # Reads below start from a checkpoint of the log, not from its JSON commits alone.
    assert list((path / "_delta_log").glob("*.checkpoint*.parquet"))
    history = {r.operation for r in spark.sql(f"DESCRIBE HISTORY delta.`{path}`").collect()}
    assert {"WRITE", "MERGE", "UPDATE", "DELETE", "OPTIMIZE"} <= history, history
    miss = absent_key(path)
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"k = {miss}"))
    assert got == [] and m["bloomFilesPruned"] == m["bloomFilesTotal"] > 0, m
    for where in (f"k = {some[0]}", "k = 5", "email = 'merged'", "email = 'three@x.io'", f"k = {some[2]}"):
        same_rows(spark, lambda where=where: spark.read.format("delta").load(str(path)).where(where))


def test_filters_are_right_sized(spark, tmp_path: Path) -> None:
    """The filter of n distinct values holds at most twice our writer's exact size (parquet-java's sizes are
    powers of two) and meets the FPP asked for, measured with absent keys."""
    path = tmp_path / "sized"
    spark.sql(f"CREATE TABLE delta.`{path}` (k BIGINT) USING delta TBLPROPERTIES ('bloom.columns' = 'k')")
    for n, fpp in ((3_000, 0.01), (60_000, 0.01), (60_000, 0.001)):
        spark.sql(f"ALTER TABLE delta.`{path}` SET TBLPROPERTIES ('bloom.fpp' = '{fpp}')")
        before = set(current_files(spark, path))
        spark.range(n).selectExpr(f"id * 2 + {n * 10} AS k").coalesce(1).write.format("delta").mode("append").save(
            str(path)
        )
        (written,) = [f for f in current_files(spark, path) if f not in before]
        (flt,) = read_bloom_filters(written).values()
        assert num_bytes(n, fpp) <= flt.num_bytes <= 2 * num_bytes(n, fpp), (n, fpp, flt.num_bytes)
        absent = np.arange(1, 400_001, 2, dtype=np.int64)  # odd: never written
        measured = flt.check_hashes(xxh64_plain(absent, "INT64")).mean()
        assert measured <= fpp * 1.25, (n, fpp, measured)


@pytest.mark.core
def test_column_mapping_filters_the_physical_column_after_a_rename(spark, tmp_path: Path) -> None:
    path = tmp_path / "mapped"
    props = "'delta.columnMapping.mode' = 'name', 'delta.minReaderVersion' = '2', 'delta.minWriterVersion' = '5'"
    spark.sql(f"CREATE TABLE delta.`{path}` (k BIGINT, email STRING, g INT) USING delta TBLPROPERTIES ({props})")
    spark.sql(f"ALTER TABLE delta.`{path}` RENAME COLUMN k TO key")
    spark.sql(f"ALTER TABLE delta.`{path}` SET TBLPROPERTIES ('bloom.columns' = 'key')")
    keys_frame(spark, 20_000, 2).withColumnRenamed("k", "key").write.format("delta").mode("append").save(str(path))
    (columns,) = filtered_columns(current_files(spark, path))
    (physical,) = columns
    assert physical.startswith("col-"), columns  # the physical name, not `key` or `k`
    assert properties(spark, path)[f"parquet.bloom.filter.enabled#{physical}"] == "true"
    miss = absent_key(path, column=physical)
    got, m = same_rows(spark, lambda: spark.read.format("delta").load(str(path)).where(f"key = {miss}"))
    assert got == [] and m["bloomFilesPruned"] == m["bloomFilesTotal"] == 2, m


def test_columns_dropped_from_the_list_and_unset_stop_their_filters(spark, tmp_path: Path) -> None:
    path = tmp_path / "changed"
    spark.sql(
        f"CREATE TABLE delta.`{path}` (k BIGINT, email STRING, g INT) USING delta "
        "TBLPROPERTIES ('bloom.columns' = 'k, email')"
    )

    def append_and_filtered() -> set[frozenset[str]]:
        before = set(current_files(spark, path))
        keys_frame(spark, 2_000, 1).write.format("delta").mode("append").save(str(path))
        return filtered_columns([f for f in current_files(spark, path) if f not in before])

    assert append_and_filtered() == {frozenset({"k", "email"})}
    spark.sql(f"ALTER TABLE delta.`{path}` SET TBLPROPERTIES ('bloom.columns' = 'k')")
    assert properties(spark, path)["parquet.bloom.filter.enabled#email"] == "false"
    assert append_and_filtered() == {frozenset({"k"})}
    spark.sql(f"ALTER TABLE delta.`{path}` UNSET TBLPROPERTIES ('bloom.columns')")
    assert not [k for k in properties(spark, path) if k.startswith(("bloom.", "parquet.bloom.filter."))]
    assert append_and_filtered() == {frozenset()}


def test_dataframe_writer_v2_creates_with_filters(spark) -> None:
    spark.sql("DROP TABLE IF EXISTS writer_v2")
    keys_frame(spark, 4_000, 1).writeTo("writer_v2").using("delta").tableProperty("bloom.columns", "email").create()
    files = [Path(f.removeprefix("file:")) for f in spark.table("writer_v2").inputFiles()]
    assert filtered_columns(files) == {frozenset({"email"})}
    spark.sql("DROP TABLE writer_v2")


BAD = [
    ("'bloom.columns' = 'nope'", "unknown column 'nope'; the table's columns are k, email, g, flag, at"),
    ("'bloom.columns' = 'k', 'bloom.fpp' = '2'", "option 'bloom.fpp' = '2': expected"),
    ("'bloom.colums' = 'k'", "did you mean 'bloom.columns'"),
    ("'bloom.columns' = 'flag'", "column 'flag' has type boolean: the Parquet spec defines no bloom filter hash"),
    ("'bloom.columns' = 'at'", "column 'at' has type timestamp, which Spark writes as INT96"),
    ("'bloom.sizing' = 'fold'", "is a write option, not a deltaTable option"),
]


def test_bad_properties_fail_naming_them(spark, tmp_path: Path) -> None:
    path = tmp_path / "bad"
    spark.sql(f"CREATE TABLE delta.`{path}` (k BIGINT, email STRING, g INT, flag BOOLEAN, at TIMESTAMP) USING delta")
    with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "INT96"}):
        for props, error in BAD:
            with pytest.raises(Exception, match=re.escape(error)):
                spark.sql(f"ALTER TABLE delta.`{path}` SET TBLPROPERTIES ({props})")
    assert not [k for k in properties(spark, path) if k.startswith(("bloom.", "parquet.bloom"))]
    spark.sql(f"ALTER TABLE delta.`{path}` SET TBLPROPERTIES ('bloom.columns' = 'k', 'bloom.fpp' = '0.05')")
    with pytest.raises(Exception, match="set the new value with SET TBLPROPERTIES"):
        spark.sql(f"ALTER TABLE delta.`{path}` UNSET TBLPROPERTIES ('bloom.fpp')")
    with pytest.raises(Exception, match="set bloom.columns with ALTER TABLE"):
        spark.sql(
            f"CREATE TABLE delta.`{tmp_path / 'cm'}` (k BIGINT) USING delta TBLPROPERTIES ("
            "'bloom.columns' = 'k', 'delta.columnMapping.mode' = 'name', 'delta.minReaderVersion' = '2', "
            "'delta.minWriterVersion' = '5')"
        )
