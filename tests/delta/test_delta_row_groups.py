"""Row groups of Delta files: a file planning kept is read only in the row groups its bloom filters
kept (the physical scan reads through ``PrunedScanFormat``). Every query differential against
Delta's own reader (the oracle), on files of many row groups, with and without deletion vectors;
and a pruned row group whose pages are destroyed is proof that no task reads it."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters, xxh64_plain

from ..spark_conf import rows, spark_conf
from .tables import ON, ORACLE, keys_frame, same_rows, write_delta

pytestmark = pytest.mark.spark

ROWS, FILES = 60_000, 3
# About 8 row groups per file (parquet-java checks the size every 100 to 10,000 rows).
SMALL_ROW_GROUPS = {"parquet.block.size": "65536", "parquet.block.size.row.check.max": "1000"}
NARROWED = re.compile(r"bloom: row groups cut in [1-9]\d* files")


def write_row_groups(spark, path: Path, **options: str) -> None:
    with spark_conf(spark, SMALL_ROW_GROUPS):
        write_delta(spark, keys_frame(spark, ROWS, FILES), path, **options)


def load(spark, path: Path, where: str) -> Any:
    return spark.read.format("delta").load(str(path)).where(where)


def executed(df: Any) -> str:
    return str(df._jdf.queryExecution().executedPlan().toString())


def row_group_of(path: Path, key: int) -> tuple[Path, int]:
    """The file and row group holding ``key``."""
    for f in sorted(path.glob("*.parquet")):
        pf = pq.ParquetFile(f)
        for rg in range(pf.num_row_groups):
            if key in pf.read_row_group(rg, columns=["k"]).column("k").to_pylist():
                return f, rg
    raise AssertionError(f"{key} not in {path}")


def rejects(f: Path, rg: int, key: int) -> bool:
    return not read_bloom_filters(f)[(rg, "k")].check_hashes(xxh64_plain(np.array([key], np.int64), "INT64"))[0]


def destroy_row_group(f: Path, rg: int) -> None:
    """Overwrites the pages of row group ``rg`` with garbage in place, keeping the file's length and times."""
    meta = pq.ParquetFile(f).metadata.row_group(rg)
    chunks = [meta.column(c) for c in range(meta.num_columns)]
    start = min(c.dictionary_page_offset if c.has_dictionary_page else c.data_page_offset for c in chunks)
    size = sum(c.total_compressed_size for c in chunks)
    times = os.stat(f)
    with open(f, "r+b") as out:
        out.seek(start)
        out.write(b"\xff" * size)
    os.utime(f, ns=(times.st_atime_ns, times.st_mtime_ns))
    # Hadoop's local file system checks 512-byte chunks: the garbage would fail its neighbours' too.
    (f.parent / f".{f.name}.crc").unlink(missing_ok=True)


@pytest.fixture(scope="module")
def table(spark, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("delta-rg") / "keys"
    write_row_groups(spark, path)
    groups = [pq.ParquetFile(f).num_row_groups for f in path.glob("*.parquet")]
    assert len(groups) == FILES and min(groups) >= 4, groups
    return path


@pytest.fixture(scope="module")
def keys(spark, table: Path) -> list[int]:
    return [r.k for r in spark.read.format("delta").load(str(table)).where("g = 3").limit(50).collect()]


@pytest.mark.cluster
def test_a_point_hit_reads_only_its_row_group(spark, table: Path, keys: list[int]) -> None:
    got, m = same_rows(spark, lambda: load(spark, table, f"k = {keys[0]}"))
    assert len(got) == 1
    assert m["bloomRowGroupsTotal"] >= FILES * 4, m
    # Of the row groups of the files kept, all but the key's (and 1 % false positives) are pruned.
    assert m["bloomRowGroupsPrunedByBloom"] >= m["bloomRowGroupsTotal"] - 3, m
    with spark_conf(spark, ON):
        assert NARROWED.search(executed(load(spark, table, f"k = {keys[0]}")))
    with spark_conf(spark, ORACLE):
        assert not NARROWED.search(executed(load(spark, table, f"k = {keys[0]}")))


@pytest.mark.cluster
@pytest.mark.core
@pytest.mark.parametrize("name", ["destroyed", "with space %41 percent"])
def test_a_pruned_row_group_is_never_read(spark, tmp_path: Path, name: str) -> None:
    """Also where the table's path holds a space and a %-escape (the kept row groups are looked up
    by the path Spark hands a split)."""
    path = tmp_path / name
    write_row_groups(spark, path)
    key = spark.read.format("delta").load(str(path)).where("g = 5").limit(1).collect()[0].k
    f, holding = row_group_of(path, key)
    others = [rg for rg in range(pq.ParquetFile(f).num_row_groups) if rg != holding and rejects(f, rg, key)]
    assert others, "no row group of the key's file rejects it"
    with spark_conf(spark, ORACLE):
        expected = rows(load(spark, path, f"k = {key}"))
    for rg in others:
        destroy_row_group(f, rg)
    with spark_conf(spark, ON):
        assert rows(load(spark, path, f"k = {key}")) == expected == [(key, expected[0][1], 5)]
    # The oracle reads every row group of the file, and so meets the garbage: the check above means something.
    with (
        spark_conf(spark, ORACLE),
        pytest.raises(Exception, match=r"(?i)FAILED_READ_FILE|error while reading file|PageHeader"),
    ):
        rows(load(spark, path, f"k = {key}"))


@pytest.mark.cluster
@pytest.mark.core
def test_row_groups_cut_by_keys_computed_at_runtime_are_never_read(spark, tmp_path: Path) -> None:
    """A join with a table of keys (Spark computes them while the query runs) cuts row groups too:
    the task reads only the row groups the keys' filters kept, as set when the scan listed its files."""
    path = tmp_path / "runtime"
    write_row_groups(spark, path)
    key = spark.read.format("delta").load(str(path)).where("g = 6").limit(1).collect()[0].k
    f, holding = row_group_of(path, key)
    others = [rg for rg in range(pq.ParquetFile(f).num_row_groups) if rg != holding and rejects(f, rg, key)]
    keys = tmp_path / "keys"
    spark.createDataFrame([(key,)], "k BIGINT").write.parquet(str(keys))

    def query() -> Any:
        return spark.read.format("delta").load(str(path)).join(spark.read.parquet(str(keys)), "k")

    with spark_conf(spark, ORACLE):
        expected = rows(query())
    for rg in others:
        destroy_row_group(f, rg)
    with spark_conf(spark, {**ON, "spark.sql.adaptive.enabled": "false"}):
        df = query()
        assert rows(df) == expected == [(key, expected[0][1], 6)]
        m = bp.scan_metrics(df)
        assert m["bloomRowGroupsPrunedByBloom"] >= m["bloomRowGroupsTotal"] - 3, m
        assert "bloom keys of k" in executed(df)
    with (
        spark_conf(spark, ORACLE),
        pytest.raises(Exception, match=r"(?i)FAILED_READ_FILE|error while reading file|PageHeader"),
    ):
        rows(query())


@pytest.mark.cluster
@pytest.mark.core
def test_deletion_vectors_with_row_groups_cut(spark, tmp_path: Path) -> None:
    path = tmp_path / "dv"
    write_row_groups(spark, path, **{"delta.enableDeletionVectors": "true"})
    some = [r.k for r in spark.read.format("delta").load(str(path)).where("g = 2").limit(40).collect()]
    spark.sql(f"DELETE FROM delta.`{path}` WHERE k IN ({', '.join(map(str, some[::2]))})")
    delete = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").where("operation = 'DELETE'").collect()[0]
    assert int(delete.operationMetrics["numDeletionVectorsAdded"]) > 0, delete.operationMetrics
    # Deleted keys, and kept keys whose row groups sit after pruned ones: row indexes must stay right.
    for chosen in (some[::2][:5], some[1::2][:5], some[:9], some[-3:]):
        where = f"k IN ({', '.join(map(str, chosen))})"
        got, m = same_rows(spark, lambda where=where: load(spark, path, where))
        assert {r[0] for r in got} == set(chosen) - set(some[::2]), where
        assert m["bloomRowGroupsPrunedByBloom"] > 0, m
    with spark_conf(spark, ON):
        assert NARROWED.search(executed(load(spark, path, f"k = {some[1]}")))


@pytest.mark.core
def test_a_reader_counting_row_indexes_itself_gets_whole_splits(spark, tmp_path: Path) -> None:
    """With Delta's own row counter (no ``_metadata.row_index``), Delta won't let Spark split its files,
    and its files are never handed a range: deletion vectors would hit the wrong rows."""
    path = tmp_path / "dv-counter"
    write_row_groups(spark, path, **{"delta.enableDeletionVectors": "true"})
    some = [r.k for r in spark.read.format("delta").load(str(path)).where("g = 4").limit(12).collect()]
    spark.sql(f"DELETE FROM delta.`{path}` WHERE k IN ({', '.join(map(str, some[::3]))})")
    counter = {"spark.databricks.delta.deletionVectors.useMetadataRowIndex": "false"}
    with spark_conf(spark, counter):
        where = f"k IN ({', '.join(map(str, some))})"
        got, _ = same_rows(spark, lambda: load(spark, path, where))
        assert {r[0] for r in got} == set(some) - set(some[::3])
        with spark_conf(spark, ON):
            assert not NARROWED.search(executed(load(spark, path, where)))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_key_list_matches_delta(spark, table: Path, keys: list[int], data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(keys) | st.integers(0, 2**33), min_size=1, max_size=10))
    where = f"k IN ({', '.join(map(str, chosen))})"
    same_rows(spark, lambda: load(spark, table, where))


@pytest.mark.core
def test_risky_filters_are_withheld_from_deltas_reader(spark, tmp_path: Path) -> None:
    """parquet-java compares a float's bits: ``x = 0.0`` skips a row group holding only -0.0 (Spark's
    ``-0.0 = 0.0`` is true). In scans we prune, Delta's reader never gets that filter (``bloom.sparkPushdown``
    safe, the default: Delta's relation keeps no read option, so a Delta scan takes no other)."""
    path = tmp_path / "negative-zero"
    df = spark.range(20_000).selectExpr("id * 2 AS k", "IF(id < 4000, -0.0D, 1.0D) AS x").coalesce(1)
    with spark_conf(spark, SMALL_ROW_GROUPS):
        write_delta(spark, df, path)
    assert pq.ParquetFile(next(path.glob("*.parquet"))).num_row_groups >= 3
    where = "k IN (2, 4, 6, 30000) AND x = 0.0"

    def query() -> Any:
        return spark.read.format("delta").load(str(path)).where(where)

    got, m = same_rows(spark, query)
    assert [r[0] for r in got] == [2, 4, 6], got
    assert m["bloomRowGroupsPrunedByStats"] + m["bloomRowGroupsPrunedByBloom"] > 0, m  # a scan we pruned
    # Delta alone, Spark's pushdown on (its default), loses them: the check above means something.
    with spark_conf(spark, {"spark.bloomparquet.delta.enabled": "false"}):
        assert rows(query()) == []
