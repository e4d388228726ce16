"""The compact suite every supported Spark minor runs (bin/test runs it on each
.venvs/spark-<minor> as well as on the default Spark): write with filters, plan,
task and SQL reads differential against Spark with pushdown off, a join with
runtime filters, a catalog table, opted-in plain Parquet, a key set from a Python list, the SQL
probe function, the CLI, retrofit, and metrics. Small and fast on purpose: the full
suite covers each feature in depth on the default Spark."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pyspark
import pytest

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters, xxh64_plain

from .schema_reads import same_schema
from .spark_conf import rows, spark_conf

pytestmark = pytest.mark.spark

ROWS, GROUP = 40_000, 5_000


@pytest.fixture(scope="module")
def written(spark, write_bloom_dir) -> Path:
    """Unsorted even keys written by bloomparquet's writer in several row groups."""
    rng = np.random.default_rng(11)
    keys = (rng.choice(10**8, ROWS, replace=False) * 2).tolist()
    df = spark.createDataFrame([(int(k), f"e{k}") for k in keys], "k BIGINT, email STRING")
    return write_bloom_dir(df.coalesce(2), "k,email", "xv", GROUP * 12)


def _absent_key(path: Path, middle: int) -> int:
    """An odd (absent) key near the middle of the keys' range, so inside every row group's
    min/max (statistics can't prune it), that every stored `k` filter rejects."""
    filters = [f for p in sorted(path.glob("*.parquet")) for (_, c), f in read_bloom_filters(p).items() if c == "k"]
    for candidate in range(middle + 1, middle + 20_000, 2):
        if not any(f.check_hashes(xxh64_plain(np.array([candidate], np.int64), "INT64"))[0] for f in filters):
            return candidate
    raise AssertionError("no such key")


def test_runs_with_the_jar_of_its_spark_minor(spark) -> None:
    assert spark.version == pyspark.__version__
    assert str(bp.jar_path()) in spark.conf.get("spark.jars").split(",")


def test_writer_writes_a_filter_per_chunk(written: Path) -> None:
    files = sorted(written.glob("*.parquet"))
    assert files
    row_groups = sum(pq.ParquetFile(f).metadata.num_row_groups for f in files)
    assert row_groups >= 4
    filters = [c for f in files for (_, c) in read_bloom_filters(f)]
    assert filters.count("k") == row_groups and filters.count("email") == row_groups


@pytest.mark.parametrize("route", ["plan", "task", "sql"])
def test_reads_match_spark_and_prune(spark, oracle, written: Path, route: str) -> None:
    present = pq.read_table(sorted(written.glob("*.parquet"))[0], columns=["k"]).column("k")[7].as_py()
    absent = _absent_key(written, 10**8)
    for where in (f"k = {present}", f"k = {absent}", f"k IN ({present}, {absent}, 3, 5)", f"email = 'e{present}'"):
        if route == "sql":
            df = spark.sql(f"SELECT * FROM bloomparquet.`{written}` WHERE {where}")
        else:
            df = bp.read_bloom(spark, str(written), **{"bloom.mode": route}).where(where)
        assert rows(df) == oracle(written, where), (route, where)
    if route != "sql":  # SQL on a path: the V2 scan with the extension, Spark's V1 route without
        miss = bp.read_bloom(spark, str(written), **{"bloom.mode": route}).where(f"k = {absent}")
        assert miss.collect() == []
        m = bp.scan_metrics(miss)
        assert m["bloomRowGroupsPrunedByBloom"] == m["bloomRowGroupsTotal"] > 0, m
        if route == "plan":
            assert m["tasks"] == 0, m


def test_large_filters_are_read_in_blocks(spark, oracle, tmp_path: Path) -> None:
    """Large filters from pyarrow (their bloom_filter_length in the footer, which Spark 3.5's
    parquet-java model lacks: planning reads it from the footer's bytes) are read in blocks on
    every minor, each chunk's length on its own chunk (4 row groups of 250,000 shuffled keys,
    the filtered column second), with rows equal to Spark's."""
    path = tmp_path / "large"
    path.mkdir()
    keys = np.random.default_rng(5).permutation(1_000_000).astype(np.int64) * 2
    pq.write_table(
        pa.table({"v": keys.astype(str), "k": keys}),
        path / "part-0.parquet",
        row_group_size=250_000,
        bloom_filter_options={"k": {"ndv": 250_000, "fpp": 0.01}},
    )
    meta = pq.ParquetFile(path / "part-0.parquet").metadata
    assert meta.num_row_groups == 4
    assert all(meta.row_group(g).column(1).bloom_filter_length > 128 << 10 for g in range(4))
    for where in ("k = 2001", "k IN (2001, 4002, 9)"):
        df = bp.read_bloom(spark, str(path), **{"bloom.cache": "false", "bloom.filterReads": "blocks"}).where(where)
        assert rows(df) == oracle(path, where), where
        m = bp.scan_metrics(df)
        assert m["bloomFiltersReadInBlocks"] == 4 and m["bloomFilterBytesRead"] < 64 * 1024, m


def test_join_prunes_with_runtime_filters(spark, oracle, written: Path, tmp_path: Path) -> None:
    absent = _absent_key(written, 10**8)
    dim_path = str(tmp_path / "dim")
    spark.createDataFrame([(absent, "x"), (absent + 2, "y")], "k BIGINT, tag STRING").write.parquet(dim_path)
    dim = spark.read.parquet(dim_path).where("tag = 'x'")  # a selective dimension: Spark plans dynamic pruning
    got_df = bp.read_bloom(spark, str(written)).join(dim, "k")
    assert rows(got_df) == oracle(written, query=lambda t: t.join(dim, "k")) == []
    assert "dynamicpruningexpression" in got_df._jdf.queryExecution().executedPlan().toString()
    m = bp.scan_metrics(got_df)
    assert m["bloomRowGroupsPrunedByBloom"] > 0, m


def test_retrofit_adds_filters_that_prune(spark, tmp_path: Path) -> None:
    path = tmp_path / "plain"
    path.mkdir()
    keys = np.arange(0, 2 * ROWS, 2, dtype=np.int64)[np.random.default_rng(3).permutation(ROWS)]
    pq.write_table(pa.table({"k": keys}), path / "a.parquet", row_group_size=GROUP)
    assert not read_bloom_filters(path / "a.parquet")
    results = bp.retrofit(spark, str(path), ["k"], fpp=0.001)
    assert [r["status"] for r in results] == ["retrofitted"]
    absent = _absent_key(path, ROWS)
    df = bp.read_bloom(spark, str(path)).where(f"k = {absent}")
    assert df.collect() == []
    assert bp.scan_metrics(df)["bloomRowGroupsPrunedByBloom"] == ROWS // GROUP


def test_catalog_table_prunes_a_point_miss(spark, oracle, written: Path) -> None:
    absent = _absent_key(written, 10**8)
    spark.sql("DROP TABLE IF EXISTS xv_table")
    spark.sql(f"CREATE TABLE xv_table USING bloomparquet LOCATION '{written}'")
    try:
        for where in (f"k = {absent}", f"k IN ({absent}, 3)"):
            df = spark.sql(f"SELECT * FROM xv_table WHERE {where}")
            assert rows(df) == oracle(written, where) == []
        miss = spark.sql(f"SELECT * FROM xv_table WHERE k = {absent}")
        assert miss.collect() == []
        m = bp.scan_metrics(miss)
        assert m["bloomRowGroupsPrunedByBloom"] == m["bloomRowGroupsTotal"] > 0 and m["tasks"] == 0, m
    finally:
        spark.sql("DROP TABLE IF EXISTS xv_table")


def test_opted_in_plain_parquet_prunes(spark, oracle, written: Path) -> None:
    present = pq.read_table(sorted(written.glob("*.parquet"))[0], columns=["k"]).column("k")[3].as_py()
    absent = _absent_key(written, 10**8)
    with spark_conf(spark, {"spark.bloomparquet.parquet.enabled": "true"}):
        for where in (f"k = {present}", f"k = {absent}"):
            assert rows(spark.read.parquet(str(written)).where(where)) == oracle(written, where), where
        miss = spark.read.parquet(str(written)).where(f"k = {absent}")
        assert miss.collect() == []
        m = bp.scan_metrics(miss)
    assert m["bloomRowGroupsPrunedByBloom"] == m["bloomRowGroupsTotal"] > 0, m


def test_local_key_set_prunes_a_semi_join(spark, oracle, written: Path) -> None:
    """Keys from a Python list (no size estimate in Spark): the key-set rule still plants a filter."""
    present = pq.read_table(sorted(written.glob("*.parquet"))[0], columns=["k"]).column("k")[5].as_py()
    absent = _absent_key(written, 10**8)
    # One key present, so the scan stays in the final plan (all absent: AQE makes the join empty).
    keys = spark.createDataFrame([(absent,), (present,)], "k bigint")
    df = bp.read_bloom(spark, str(written)).join(keys, "k", "left_semi")
    assert len(rows(df)) == 1
    assert rows(df) == oracle(written, query=lambda t: t.join(keys, "k", "left_semi"))
    m = bp.scan_metrics(df)
    assert m["bloomRowGroupsPrunedByBloom"] > 0, m


def test_sql_probe_function(spark, written: Path) -> None:
    absent = _absent_key(written, 10**8)
    got = spark.sql(f"SELECT * FROM bloomparquet_probe('{written}', 'k', {absent}L)").collect()
    assert got and {r.result for r in got} == {"excluded"}, got


def test_cli_inspects_and_probes(written: Path) -> None:
    file = str(sorted(written.glob("*.parquet"))[0])
    for args in (["inspect", file], ["probe", file, "k", "1"], ["advise", file, "--json"]):
        done = subprocess.run(
            [sys.executable, "-m", "bloomparquet", *args], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, (args, done.stderr[-2000:])


def test_a_paths_schema_is_sparks_and_a_stored_one_needs_no_job(spark, written: Path, tmp_path: Path) -> None:
    """Our writer's files store their Spark schema: read on the driver, no job; pyarrow's
    don't: Spark's own inference. Both as Spark's ``parquet`` infers them, on this minor."""
    _, jobs, sql_jobs = same_schema(spark, written)
    assert (jobs, sql_jobs) == (0, 0)
    (tmp_path / "pa").mkdir()
    pq.write_table(pa.table({"k": [1, 2], "raw": pa.array([b"a", b"b"])}), tmp_path / "pa" / "part-0.parquet")
    _, jobs, _ = same_schema(spark, tmp_path / "pa")
    assert jobs >= 1


def test_iceberg_reads_are_refused_without_iceberg(spark) -> None:
    """No Iceberg runtime on this session's class path: the conf fails every query, saying what is missing
    (where Iceberg publishes no runtime for the minor, that it has none); off, nothing changes."""
    minor = ".".join(pyspark.__version__.split(".")[:2])
    properties = (Path(__file__).resolve().parents[1] / "project" / "spark-versions.properties").read_text()
    release = re.search(rf"^iceberg\.{re.escape(minor)}=(\S+)$", properties, re.M)
    why = "Apache Iceberg is not on the class path" if release else f"publishes no release for Spark {minor}"
    with (
        spark_conf(spark, {"spark.bloomparquet.iceberg.enabled": "true"}),
        pytest.raises(Exception, match=f"spark.bloomparquet.iceberg.enabled=true is refused: .*{why}"),
    ):
        spark.range(3).where("id = 1").collect()
    assert spark.range(3).where("id = 1").count() == 1
    scala = re.search(rf"^scala\.{re.escape(minor)}=(\d+\.\d+)", properties, re.M)
    assert scala is not None
    artifact = f"org.apache.iceberg:iceberg-spark-runtime-{minor}_{scala.group(1)}"
    assert bp.iceberg_package() == (release and f"{artifact}:{release.group(1)}")


def test_delta_reads_are_refused_without_delta(spark) -> None:
    """No Delta on this session's class path: the conf fails every query, saying what is missing (on the
    default Spark, 4.3, that Delta Lake has no release for it); off, nothing changes."""
    minor = ".".join(pyspark.__version__.split(".")[:2])
    properties = (Path(__file__).resolve().parents[1] / "project" / "spark-versions.properties").read_text()
    has_release = f"\ndelta.{minor}=" in properties
    why = "Delta Lake is not on the class path" if has_release else f"publishes no release for Spark {minor}"
    refused = pytest.raises(Exception, match=f"spark.bloomparquet.delta.enabled=true is refused: .*{why}")
    with spark_conf(spark, {"spark.bloomparquet.delta.enabled": "true"}), refused:
        spark.range(3).where("id = 1").collect()
    assert spark.range(3).where("id = 1").count() == 1
    with pytest.raises(Exception, match=f"retrofit of a Delta table is refused: .*{why}"):
        bp.retrofit(spark, "/nowhere", ["k"], format="delta")
    # The Delta release the jar is built against, for sessions and tools that start Delta (None without one).
    release = re.search(rf"^delta\.{re.escape(minor)}=(\S+)$", properties, re.M)
    package = bp.delta_package()
    assert (package is None) == (release is None), package
    if release is not None:
        assert (
            package is not None and package.startswith("io.delta:delta-spark_") and package.endswith(release.group(1))
        )
    # Table properties that write filters need Delta too: refused on a Delta table only, never silently stored.
    with spark_conf(spark, {"spark.bloomparquet.delta.enabled": "false"}):
        spark.sql(
            "CREATE TABLE IF NOT EXISTS plain_props (k BIGINT) USING parquet TBLPROPERTIES ('bloom.columns' = 'k')"
        )
        spark.sql("DROP TABLE plain_props")
