"""Every public helper over Spark Connect, differential against Spark's own
reader with pushdown off, through the same server."""

from __future__ import annotations

import subprocess
import sys
from functools import reduce
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.errors import IllegalArgumentException

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters

from ..spark_conf import PUSHDOWN_OFF, SPARK3, rows, spark_conf

ROWS, GROUP = 40_000, 5_000


def _metrics(df) -> dict | None:
    """``scan_metrics`` of an executed DataFrame; on Spark 3.5 (no DataFrame.executionInfo), None after
    checking that it refuses, naming the version."""
    if SPARK3:
        with pytest.raises(NotImplementedError, match="Spark 4.0 added"):
            bp.scan_metrics(df)
        return None
    return bp.scan_metrics(df)


def _keys(seed: int) -> np.ndarray:
    """Even keys 0..2*ROWS in shuffled order: statistics can't prune, filters can."""
    return np.arange(0, 2 * ROWS, 2, dtype=np.int64)[np.random.default_rng(seed).permutation(ROWS)]


@pytest.fixture(scope="module")
def written(connect, write_bloom_dir) -> Path:
    df = connect.createDataFrame(pa.table({"k": _keys(1), "tag": [f"t{i % 7}" for i in range(ROWS)]}).to_pandas())
    return write_bloom_dir(df.coalesce(1), ["k", "tag"], "connect", GROUP * 10, fpp=0.001)


def test_session_is_connect(connect) -> None:
    assert type(connect).__module__.startswith("pyspark.sql.connect")


def test_session_on_a_running_server_is_checked_for_bloomparquet(connect) -> None:
    """``session(remote="sc://...")`` connects to a running server (here the local one) and checks
    that bloomparquet's SQL functions answer there; a server without them gets an error naming the
    jar and the extension setting, not a failure at the first read."""
    port = connect.conf.get("spark.connect.grpc.binding.port", "15002")
    spark = bp.session(remote=f"sc://localhost:{port}")
    assert type(spark).__module__.startswith("pyspark.sql.connect")
    assert spark.sql("SELECT kernel FROM bloomparquet_kernel()").collect()[0].kernel in ("vector", "scalar")
    from bloomparquet._session import _check_connect_loaded

    with pytest.raises(RuntimeError, match="not registered on this Spark Connect server.*spark.sql.extensions="):
        _check_connect_loaded(connect, function="bloomparquet_no_such_function")


def test_write_bloom_writes_filters(written: Path) -> None:
    (file,) = written.glob("*.parquet")
    groups = pq.ParquetFile(file).metadata.num_row_groups
    assert groups >= 4
    assert sorted(c for (_, c) in read_bloom_filters(file)) == sorted(["k", "tag"] * groups)


@pytest.mark.parametrize("route", ["plan", "task", "sql"])
def test_reads_match_spark_and_metrics_show_pruning(connect, written: Path, route: str) -> None:
    for where in ("k = 1234", "k = 1235", "k IN (2, 4, 5, 7)", "tag = 't3' AND k = 70000"):
        if route == "sql":
            df = connect.sql(f"SELECT * FROM bloomparquet.`{written}` WHERE {where}")
        else:
            df = bp.read_bloom(connect, str(written), **{"bloom.mode": route}).where(where)
        got = rows(df)
        with spark_conf(connect, PUSHDOWN_OFF):
            assert got == rows(connect.read.parquet(str(written)).where(where)), (route, where)
    if route == "plan":
        miss = bp.read_bloom(connect, str(written)).where("k = 1235")
        assert miss.collect() == []
        m = _metrics(miss)
        if m is not None:
            assert m["scans"] == 1 and m["tasks"] == 0, m
            assert (
                m["bloomRowGroupsPrunedByBloom"] + m["bloomRowGroupsPrunedByStats"] == m["bloomRowGroupsTotal"] >= 4
            ), m


def test_read_options_are_validated_before_anything_runs(connect, written: Path) -> None:
    with pytest.raises(ValueError, match="bloom.mode"):
        bp.read_bloom(connect, str(written), **{"bloom.mode": "everywhere"})
    with pytest.raises(IllegalArgumentException, match="bloom.mode"):
        connect.read.format("bloomparquet").option("bloom.mode", "everywhere").load(str(written)).collect()


def test_retrofit_runs_on_the_server_and_prunes(connect, tmp_path: Path) -> None:
    path = tmp_path / "plain"
    path.mkdir()
    pq.write_table(pa.table({"k": _keys(2)}), path / "a.parquet", row_group_size=GROUP)
    results = bp.retrofit(connect, str(path), ["k"], fpp=0.001)
    assert [(r["status"], r["columns"], r["chunks"]) for r in results] == [("retrofitted", "k", ROWS // GROUP)]
    assert len(read_bloom_filters(path / "a.parquet")) == ROWS // GROUP
    miss = bp.read_bloom(connect, str(path)).where("k = 40001")
    assert miss.collect() == []
    m = _metrics(miss)
    assert m is None or m["bloomRowGroupsPrunedByBloom"] >= ROWS // GROUP - 1  # FPP 0.1 %: one may survive
    with pytest.raises(ValueError, match="not available over Spark Connect"):
        bp.retrofit(connect, str(path), ["k"], conf={"fs.defaultFS": "file:///"})


def test_write_bloom_and_retrofit_keep_a_digest_current_over_connect(connect, tmp_path: Path) -> None:
    path = tmp_path / "digested"
    bp.write_bloom(connect.range(4_000).selectExpr("id * 2 AS k").repartition(2), str(path), "k")
    assert bp.refresh_digest(connect, str(path)) is None  # no digest: none made
    bp.build_digest(connect, str(path), "k")
    bp.write_bloom(connect.range(1).selectExpr("CAST(1 AS BIGINT) AS k"), str(path), "k", mode="append")
    pq.write_table(pa.table({"k": _keys(2)}), path / "plain.parquet", row_group_size=GROUP)
    assert {r["status"] for r in bp.retrofit(connect, str(path), "k")} == {"retrofitted", "unchanged"}
    # The append and the retrofit each rebuilt the digest: every file is covered as it is now.
    again = bp.refresh_digest(connect, str(path))
    assert again is not None and again["files_reused"] == again["files"] > 2 and again["bytes_read"] == 0, again


def test_cli_kernel_over_connect(connect) -> None:
    port = connect.conf.get("spark.connect.grpc.binding.port", "15002")
    out = subprocess.run(
        [sys.executable, "-m", "bloomparquet", "kernel", "--remote", f"sc://localhost:{port}"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    kernel = out.stdout.strip().splitlines()[-1]
    assert kernel.split(":")[0] in ("vector", "scalar"), kernel


def test_sql_filter_functions_over_connect(connect, written: Path) -> None:
    """bloomparquet_filters and bloomparquet_probe run on the server: the listing is the
    reference reader's filters, a stored key is never excluded, an absent one mostly is."""
    files = sorted(written.glob("*.parquet"))
    listed = connect.sql(f"SELECT * FROM bloomparquet_filters('{written}')").collect()
    assert {(r.row_group, r.column) for r in listed} == set(read_bloom_filters(files[0]))
    # Spark 3.5's parquet-java (1.13) footer model has no bloom_filter_length: the reader finds the header.
    assert all(r.status == "ok" and r.has_length != SPARK3 and 0 < r.estimated_fpp < 0.01 for r in listed)
    stored = connect.sql(f"SELECT * FROM bloomparquet_probe('{written}', 'k', 2L)").collect()
    pf = pq.ParquetFile(files[0])
    holds = {i for i in range(pf.num_row_groups) if 2 in pf.read_row_group(i, columns=["k"])["k"].to_pylist()}
    assert holds and all(r.result == "may-contain" for r in stored if r.row_group in holds)
    absent = connect.sql(f"SELECT * FROM bloomparquet_probe('{written}', 'k', 40001L)").collect()
    assert sum(r.result == "excluded" for r in absent) >= len(absent) - 1


def test_sql_tables_views_and_key_sets_prune_before_tasks(connect, written: Path, tmp_path: Path) -> None:
    """With the server's session extension, a catalog table, a view over it and SQL on the path
    plan through the V2 scan (a miss starts no task), and a join to a key file prunes at run time."""
    connect.sql(f"CREATE TABLE IF NOT EXISTS connect_events USING bloomparquet LOCATION '{written}'")
    connect.sql("CREATE OR REPLACE TEMP VIEW connect_view AS SELECT * FROM connect_events WHERE tag <> 'none'")
    for source in ("connect_events", "connect_view", f"bloomparquet.`{written}`"):
        miss = connect.sql(f"SELECT * FROM {source} WHERE k = 1235")
        assert miss.collect() == []
        m = _metrics(miss)
        assert m is None or m["tasks"] == 0 and m["bloomFilesPruned"] == m["bloomFilesTotal"] == 1, (source, m)
    keys_path = str(tmp_path / "keys")
    connect.createDataFrame([(1235,), (1237,), (int(_keys(1)[7]),), (None,)], "k long").coalesce(1).write.parquet(
        keys_path
    )
    keys = connect.read.parquet(keys_path)
    joined = connect.table("connect_events").join(keys, "k")
    got = rows(joined)
    with spark_conf(connect, PUSHDOWN_OFF):
        assert got == rows(connect.read.parquet(str(written)).join(keys, "k"))
    assert len(got) == 1
    m = _metrics(joined)
    assert m is None or m["bloomRowGroupsPrunedByBloom"] > 0, m


def test_key_sets_too_many_to_prune_plant_no_filter(connect, written: Path, tmp_path: Path) -> None:
    """20,000 keys against filters of 0.1 %: a row group holding none of them survives with
    probability 1-(0.999)^20000 ≈ 1, so no runtime filter is planned on any SQL route (catalog
    table, view, path) and the fact is read once, whole, as Spark's own scan reads it."""
    keys_path = str(tmp_path / "many_keys")
    connect.range(20_000).selectExpr("id * 2 + 1 AS k").coalesce(1).write.parquet(keys_path)  # odd: none present
    connect.sql(f"CREATE TABLE IF NOT EXISTS connect_events USING bloomparquet LOCATION '{written}'")
    connect.sql("CREATE OR REPLACE TEMP VIEW connect_view AS SELECT * FROM connect_events WHERE tag <> 'none'")
    for source in ("connect_events", "connect_view", f"bloomparquet.`{written}`"):
        q = connect.sql(f"SELECT f.* FROM {source} f JOIN parquet.`{keys_path}` m ON f.k = m.k")
        assert rows(q) == [], source
        m = _metrics(q)
        assert m is None or m.get("bloomRuntimeFiltersReceived", 0) == 0 and m["numOutputRows"] == ROWS + 20_000, m


@pytest.mark.parametrize("shape", ["left_semi", "in_subquery"])
def test_keys_from_a_client_list_prune_without_a_hint(connect, written: Path, shape: str) -> None:
    """Connect's createDataFrame sends the rows as a local relation: its size is known, so a
    lookup of keys from a Python list prunes with no hint, equal to Spark's parquet."""
    present = int(_keys(1)[7])
    keys = connect.createDataFrame([(1235,), (1237,), (present,), (None,), (present,)], "k long")

    def query(table):
        if shape == "left_semi":
            return table.join(keys, "k", "left_semi")
        table.createOrReplaceTempView("connect_lk_fact")
        keys.createOrReplaceTempView("connect_lk_keys")
        return connect.sql("SELECT * FROM connect_lk_fact WHERE k IN (SELECT k FROM connect_lk_keys)")

    ours = query(bp.read_bloom(connect, str(written)))
    got = rows(ours)
    with spark_conf(connect, PUSHDOWN_OFF):
        assert got == rows(query(connect.read.parquet(str(written))))
    assert len(got) == 1
    m = _metrics(ours)
    assert m is None or m["bloomRowGroupsPrunedByBloom"] > 0, m


@pytest.fixture(scope="module")
def file_classes(tmp_path_factory) -> dict[str, Path]:
    """The corpus' classes written without a JVM (pyarrow's, DuckDB's) that Spark reads."""
    from ..corpus import write_all

    return write_all(tmp_path_factory.mktemp("classes"), readable_only=True)


def _tagged(df, *tags: object):
    """``df``'s ids, each row with ``tags`` before it: branches of one union stay apart."""
    from pyspark.sql import functions as F

    return df.select(*(F.lit(t) for t in tags), "id")


def _union(frames: list):
    return reduce(lambda a, b: a.unionAll(b), frames)


def _per_predicate(connect, name: str, path: Path, routes: dict, wheres: list[str]) -> None:
    """A class whose union Spark's reader refused, one predicate at a time: where the oracle fails, each
    route fails with the same error; where it reads, each route reads its rows."""
    from pyspark.errors import PySparkException

    for where in wheres:
        try:
            with spark_conf(connect, PUSHDOWN_OFF):
                want = rows(connect.read.parquet(str(path)).where(where).select("id"))
        except PySparkException as e:
            for route, df in routes.items():
                with pytest.raises(PySparkException) as ours:
                    rows(df.where(where).select("id"))
                assert type(ours.value) is type(e), (name, where, route)  # noqa: PT017 - e is the oracle's
            continue
        for route, df in routes.items():
            assert rows(df.where(where).select("id")) == want, (name, where, route)


def test_file_classes_over_connect(connect, file_classes: dict[str, Path]) -> None:
    """Wrong column indexes, checksummed pages, odd encodings, nulls-only chunks, legacy lists, INT96 and
    decimals, through a DataFrame and SQL on a path over Connect: the rows of Spark's `parquet` with
    pushdown off on the same server. A class's predicates and routes go in one union (each branch its own
    scan, planned and pruned alone), so each class costs two round trips, not one per predicate and route."""
    from pyspark.errors import PySparkException

    from ..corpus import KEY_PREDICATES

    assert {"column_index_all_null_pages", "column_index_bounds_exclude_values"} <= set(file_classes)
    wheres = [KEY_PREDICATES[i] for i in (0, 2, 5, 9)]  # k hit, k IN with a null, s hit, k OR s
    for name, path in file_classes.items():
        routes = {
            "dataframe": bp.read_bloom(connect, str(path)),
            "sql path": connect.sql(f"SELECT * FROM bloomparquet.`{path}`"),
        }
        oracle = [_tagged(connect.read.parquet(str(path)).where(w), i) for i, w in enumerate(wheres)]
        try:
            with spark_conf(connect, PUSHDOWN_OFF):
                want = rows(_union(oracle))
        except PySparkException:  # this Spark's reader can't read the class (4.0: BYTE_STREAM_SPLIT ints)
            _per_predicate(connect, name, path, routes, wheres)
            continue
        ours = [_tagged(df.where(w), r, i) for r, df in routes.items() for i, w in enumerate(wheres)]
        got = rows(_union(ours))
        for i, where in enumerate(wheres):
            expected = [t[1:] for t in want if t[0] == i]
            for route in routes:
                assert [t[2:] for t in got if t[:2] == (route, i)] == expected, (name, where, route)


def test_a_side_adaptive_execution_dropped_is_missing_from_connect_metrics(
    connect, written: Path, tmp_path: Path
) -> None:
    """Absent keys, cached, on a right outer join's right: the bloomparquet side is broadcast,
    pruned to nothing, and adaptive execution drops it from its final plan. Rows equal Spark's
    parquet. Spark Connect sends the final plan's metrics only, so that side's bloom counters are
    missing, as the scan_metrics docstring says (a classic session counts them: tests/test_key_sets.py)."""
    path = str(tmp_path / "absent")
    connect.createDataFrame([(3,), (5,), (7,)], "k long").coalesce(1).write.parquet(path)
    keys = connect.read.parquet(path).cache()
    keys.count()
    with spark_conf(connect, {"spark.sql.autoBroadcastJoinThreshold": str(64 << 20)}):
        q = connect.read.format("bloomparquet").load(str(written)).join(keys, "k", "right_outer")
        got = rows(q)
        with spark_conf(connect, PUSHDOWN_OFF):
            assert got == rows(connect.read.parquet(str(written)).join(keys, "k", "right_outer"))
        assert len(got) == 3
        m = _metrics(q)
    assert m is None or not any(k.startswith("bloom") for k in m), m
    keys.unpersist()
