"""Plan-time pruning with a table's bloom digest, differentially: on every route the rows are Spark's
(``parquet``, pushdown off), and the digest changes what planning reads, never what it decides: the
files and row groups pruned and the rows decoded equal those of the same read with ``bloom.digest``
off. Files the digest does not cover at their current version (appended, replaced in place with the
same length and modification time, deleted) are judged on their own; a damaged digest is refused
and changes nothing; a digest rebuilt while queries plan is seen whole or not at all."""

from __future__ import annotations

import os
import shutil
import threading
import uuid
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import bloomparquet as bp

from .routes import bloom_routes
from .spark_conf import PUSHDOWN_OFF, rows, spark_conf

pytestmark = pytest.mark.spark

N = 30_000  # rows of our writer's and Spark's files; pyarrow's add 5,000 without filters
NO_CACHE = {"spark.bloomparquet.read.cache": "false"}
DIGEST_OFF = {"spark.bloomparquet.read.digest": "false"}
PRUNED = ("bloomRowGroupsPrunedByBloom", "bloomRowGroupsPrunedByStats", "bloomRowGroupsPrunedByDictionary")


def _k(i: int) -> int:
    """Row i's key: even, shuffled (statistics can't prune it); odd keys inside the range are absent."""
    return (i * 7919) % (N + 5_000) * 2


def _ks(i: int) -> str:
    return str(uuid.UUID(int=i * 0x9E3779B97F4A7C15 % (1 << 128), version=4))


def _frame(spark, ids: range):
    data = [(_k(i), _ks(i), i) for i in ids]
    return spark.createDataFrame(data, "k long, ks string, id long")


@pytest.fixture(scope="module")
def table(spark, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Files of three writers: ours (right-sized filters on k and ks), Spark's parquet-java (1 MiB
    filters, folded in the digest), pyarrow (no filters: never covered)."""
    root = tmp_path_factory.mktemp("digest_planning") / "t"
    block = {"parquet.block.size": str(96 * 1024)}
    bp.write_bloom(_frame(spark, range(0, 20_000)).repartition(4), str(root), ["k", "ks"], **block)
    with spark_conf(spark, {"parquet.bloom.filter.enabled#k": "true", "parquet.bloom.filter.enabled#ks": "true"}):
        _frame(spark, range(20_000, N)).repartition(2).write.mode("append").options(**block).parquet(str(root))
    ids = np.arange(N, N + 5_000)
    pq.write_table(
        pa.table({"k": [_k(int(i)) for i in ids], "ks": [_ks(int(i)) for i in ids], "id": ids}),
        root / "pyarrow.parquet",
    )
    return root


def _queries() -> dict[str, str]:
    hit, other = 123, 24_567  # one in our writer's files, one in Spark's
    miss = _k(777) + 1
    return {
        "point_miss": f"k = {miss}",
        "point_hit": f"k = {_k(hit)}",
        "in": f"k IN ({_k(hit)}, {miss}, {miss + 2}, {_k(other)})",
        "string_hit": f"ks = '{_ks(other)}'",
        "string_miss": f"ks = '{_ks(10**9)}'",
        "or": f"k = {miss} OR ks = '{_ks(hit)}'",
        "and": f"k = {_k(hit)} AND ks = '{_ks(other)}'",
        "null_safe": f"k <=> {miss}",
        "pyarrow_hit": f"k = {_k(N + 42)}",
    }


def _build(spark, path: Path, fpp: float = 1e-4) -> dict:
    return bp.build_digest(spark, str(path), ["k", "ks"], fpp=fpp)


def _plan(spark, path: Path, where: str, confs: dict[str, str] | None = None) -> tuple[list, dict[str, int]]:
    with spark_conf(spark, {**NO_CACHE, **(confs or {})}):
        df = bp.read_bloom(spark, str(path)).where(where)
        return rows(df), bp.scan_metrics(df)


def _same_decisions(on: dict[str, int], off: dict[str, int], query: str) -> None:
    assert on["bloomFilesPruned"] == off["bloomFilesPruned"], (query, on, off)
    assert sum(on[m] for m in PRUNED) == sum(off[m] for m in PRUNED), (query, on, off)
    assert on["numOutputRows"] == off["numOutputRows"], (query, on, off)  # rows decoded


@pytest.mark.cluster
def test_a_current_digest_decides_as_the_files_do_and_reads_less(spark, table: Path, oracle) -> None:
    built = _build(spark, table)
    assert built["files"] == 7 and built["digest_bytes"] < built["filter_bytes"], built
    for name, where in _queries().items():
        expected = oracle(table, where)
        got_on, on = _plan(spark, table, where)
        got_off, off = _plan(spark, table, where, DIGEST_OFF)
        assert got_on == got_off == expected, name
        _same_decisions(on, off, name)
        assert off["bloomDigestEntries"] == off["bloomDigestRequests"] == 0, (name, off)
        # Every file is in the digest at its version; the pyarrow file has no entry (no filter): its row
        # groups are kept by the digest, and it is judged (its footer read) on its own.
        assert on["bloomDigestFilesNotCovered"] == 0 and on["bloomDigestRefused"] == 0, (name, on)
        # The first query reads the pointer and the digest's tail; later ones find it held: the pointer alone.
        assert on["bloomDigestEntries"] > 0 and on["bloomDigestRequests"] >= 1, (name, on)
        assert on["bloomFootersRead"] <= off["bloomFootersRead"] == 7, (name, on, off)
    # A point miss: the digest rules out every covered file (filters of p <= 1 % over 20 row groups keep
    # one with probability <= 1 - 0.99^20 = 18 %, so allow one), only the pyarrow file's footer is read.
    _, miss = _plan(spark, table, _queries()["point_miss"])
    assert miss["bloomFootersRead"] <= 2 and miss["bloomDigestEntriesPruned"] >= miss["bloomDigestEntries"] - 1, miss


def _planning_gets(spark, table: Path, where: str, confs: dict[str, str]) -> int:
    """GETs of the table's data files while planning the scan's splits of ``where`` (cache off), read
    through the test jar's ``slow:`` file system. Physical planning, which reads the first and last
    file's footer for the scan's runtime-filter columns, comes first and is not counted."""
    store = spark._jvm.io.bloomparquet.testing.SlowFileSystem
    hadoop = spark._jsc.hadoopConfiguration()
    for k, v in store.settings().items():
        hadoop.set(k, v)
    store.setLatencyMs(0, 0)
    with spark_conf(spark, {**NO_CACHE, **confs}):
        q = bp.read_bloom(spark, f"slow://{table}").where(where)
        q._jdf.queryExecution().executedPlan()
        store.reset()
        q.rdd.getNumPartitions()
    return sum(int(store.of(str(f))[1]) for f in table.glob("*.parquet"))


def test_files_the_digest_keeps_are_judged_in_their_tasks_unread_by_planning(spark, table: Path, oracle) -> None:
    _build(spark, table)
    plan = {"spark.bloomparquet.read.digestSurvivors": "plan"}
    for name, where in _queries().items():
        # Left to their tasks, the files the digest keeps cost planning nothing: it reads the digest alone.
        assert _planning_gets(spark, table, where, {}) == 0, name
        got_task, by_task = _plan(spark, table, where)
        got_plan, by_plan = _plan(spark, table, where, plan)
        assert got_task == got_plan == oracle(table, where), name
        _same_decisions(by_task, by_plan, name)
        assert by_task["bloomDigestFilesNotCovered"] == by_plan["bloomDigestFilesNotCovered"] == 0, name
        # Every file read was one the digest kept and left to its task; judged on the driver, none is.
        read = by_task["bloomFilesTotal"] - by_task["bloomFilesPruned"]
        assert read <= by_task["bloomFilesJudgedInTasks"] <= by_task["bloomFilesTotal"], (name, by_task)
        assert by_plan["bloomFilesJudgedInTasks"] == 0, (name, by_plan)
    # Judged on the driver, a kept file's footer is read there: a hit's file, and pyarrow's (no filters).
    assert _planning_gets(spark, table, _queries()["point_hit"], plan) >= 2


def test_a_join_prunes_with_the_digest_and_its_tasks_judge_the_rest(spark, table: Path, oracle) -> None:
    _build(spark, table)
    keys = spark.createDataFrame([(_k(123),), (_k(24_567),), (_k(777) + 1,)], "k long")
    for survivors in ("task", "plan"):
        with spark_conf(spark, {**NO_CACHE, "spark.bloomparquet.read.digestSurvivors": survivors}):
            q = bp.read_bloom(spark, str(table)).join(keys, "k")
            assert rows(q) == oracle(table, query=lambda t: t.join(keys, "k")), survivors
            m = bp.scan_metrics(q)
        assert m["bloomDigestEntries"] > 0 and m["bloomFilesPruned"] >= 4, (survivors, m)


def test_every_route_returns_sparks_rows_with_the_digest(spark, table: Path, oracle) -> None:
    _build(spark, table)
    queries = {k: v for k, v in _queries().items() if k in ("point_miss", "point_hit", "or", "string_hit")}
    with bloom_routes(spark, table, "digest_routes") as (_, routes):
        for route, (df, confs) in routes.items():
            for name, where in queries.items():
                with spark_conf(spark, {**PUSHDOWN_OFF, **confs}):
                    assert rows(df.where(where)) == oracle(table, where), (route, name)


def test_a_partitioned_table_is_covered_from_its_root_and_from_a_partition(spark, tmp_path: Path, oracle) -> None:
    root = tmp_path / "parted"
    (
        _frame(spark, range(8_000))
        .selectExpr("*", "id % 2 AS p")
        .repartition(4)
        .write.format(bp.WRITE_FORMAT)
        .options(**{"bloom.columns": "k", "parquet.block.size": str(64 * 1024)})
        .partitionBy("p")
        .save(str(root))
    )
    _build(spark, root)
    miss = f"k = {_k(5) + 1}"
    for path in (root, root / "p=1"):
        got, m = _plan(spark, path, miss)
        assert got == oracle(path, miss) == [], path
        assert m["bloomDigestEntries"] > 0 and m["bloomDigestFilesNotCovered"] == 0, (path, m)
        assert m["bloomFootersRead"] <= 1, (path, m)


# Pages carry no checksum: a CRC is a varint in the page header, so a changed key could change the length.
SAME_LENGTH = {
    "compression": "uncompressed",
    "parquet.enable.dictionary": "false",
    "parquet.page.write-checksum.enabled": "false",
}


def _same_length_rewrite(spark, target: Path, candidates: list[int]) -> int:
    """Rewrites ``target`` (one row group of ours) in place with one key changed to the first candidate
    that keeps the file's length, and keeps its modification time: only the file system's own version
    (inode and change time) tells it apart. Returns the key written."""
    before = target.stat()
    df = spark.read.parquet(str(target))
    first = df.orderBy("id").first()
    for new_key in candidates:
        changed = df.selectExpr(f"CASE WHEN id = {first['id']} THEN {new_key} ELSE k END AS k", "ks", "id")
        out = target.parent.parent / f"rewrite-{uuid.uuid4()}"
        changed.coalesce(1).write.format(bp.WRITE_FORMAT).options(**{"bloom.columns": "k,ks", **SAME_LENGTH}).save(
            str(out)
        )
        (written,) = out.glob("*.parquet")
        if written.stat().st_size == before.st_size:
            target.write_bytes(written.read_bytes())  # in place: same inode, new change time
            # Hadoop's local file system checks a file against its .crc sidecar: the new content's goes with it.
            crc = (written.parent / f".{written.name}.crc").read_bytes()
            (target.parent / f".{target.name}.crc").write_bytes(crc)
            os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
            shutil.rmtree(out)
            return new_key
        shutil.rmtree(out)
    raise AssertionError(f"no candidate key kept {target.name}'s length of {before.st_size} bytes")


def _append_past_the_digest(df, root: Path) -> None:
    """One file with filters on k added as another writer would: written apart by the format, then moved in
    (a write into ``root`` through the format rebuilds the digest)."""
    apart = root.parent / f"apart-{uuid.uuid4()}"
    df.coalesce(1).write.format(bp.WRITE_FORMAT).option("bloom.columns", "k").save(str(apart))
    for f in apart.glob("*.parquet"):
        shutil.move(f, root / f.name)
    shutil.rmtree(apart)


@pytest.mark.cluster
def test_files_changed_since_the_digest_are_judged_on_their_own(spark, tmp_path: Path, oracle) -> None:
    root = tmp_path / "stale"
    # One row group per file, uncompressed and plain, so a rewrite with one key changed keeps the length.
    bp.write_bloom(
        _frame(spark, range(6_000)).repartition(3),
        str(root),
        ["k", "ks"],
        **SAME_LENGTH,
    )
    files = sorted(root.glob("*.parquet"))
    _build(spark, root)
    appended = _k(N + 1_001) + 1  # odd: in no file when the digest was built
    _append_past_the_digest(_frame(spark, range(1)).selectExpr(f"CAST({appended} AS BIGINT) AS k", "ks", "id"), root)
    replaced = _same_length_rewrite(spark, files[0], [_k(N + 1_003 + i) + 1 for i in range(8)])
    gone = spark.read.parquet(str(files[1])).first()["k"]
    files[1].unlink()
    for where, found in ((f"k = {appended}", 1), (f"k = {replaced}", 1), (f"k = {gone}", 0)):
        got, m = _plan(spark, root, where)
        assert got == oracle(root, where) and len(got) == found, (where, got)
        # The appended file and the replaced one: not covered; the deleted file's entries: ignored.
        assert m["bloomDigestFilesNotCovered"] == 2 and m["bloomDigestEntries"] > 0, (where, m)
        _, off = _plan(spark, root, where, DIGEST_OFF)
        _same_decisions(m, off, where)


def test_a_rebuild_reads_only_the_files_changed_since(spark, tmp_path: Path, oracle) -> None:
    root = tmp_path / "rebuilt"
    shutil.copytree(_small_table(spark, tmp_path), root)
    first = bp.build_digest(spark, str(root), "k")
    assert first["files_reused"] == 0 and first["files"] == 4, first
    _append_past_the_digest(_frame(spark, range(4_000, 5_000)), root)
    second = bp.build_digest(spark, str(root), "k")
    # The four files unchanged since are kept from the first digest; only the new one is read.
    assert (second["files"], second["files_reused"]) == (5, 4) and second["entries"] > first["entries"], second
    assert 0 < second["bytes_read"] < first["bytes_read"], (first, second)
    # The kept entries decide as the files' own filters do, the new file's too: same as a full rebuild.
    full = bp.build_digest(spark, str(root), "k", full=True)
    assert (full["files_reused"], full["entries"]) == (0, second["entries"]), full
    for where in (f"k = {_k(4_321)}", f"k = {_k(17)}", f"k = {_k(17) + 1}"):
        got, m = _plan(spark, root, where)
        assert got == oracle(root, where), where
        assert m["bloomDigestFilesNotCovered"] == 0, m
        _, off = _plan(spark, root, where, DIGEST_OFF)
        _same_decisions(m, off, where)
    # Another bound or other columns: nothing is kept.
    assert bp.build_digest(spark, str(root), "k", fpp=1e-3)["files_reused"] == 0


def test_a_retrofit_keeps_the_tables_digest_current(spark, tmp_path: Path, oracle) -> None:
    root = tmp_path / "retrofitted"
    _frame(spark, range(4_000)).repartition(4).write.parquet(str(root))  # Spark's writer: no filters
    built = bp.build_digest(spark, str(root), "k")
    assert (built["files"], built["entries"]) == (4, 0), built
    statuses = [r["status"] for r in bp.retrofit(spark, str(root), "k")]
    assert statuses == ["retrofitted"] * 4, statuses
    # The retrofit rebuilt the digest (same columns and bound): it holds the new filters, for the files
    # as they are now, so a build right after reuses every entry and reads no file.
    again = bp.build_digest(spark, str(root), "k")
    assert (again["files_reused"], again["bytes_read"]) == (4, 0) and again["entries"] >= 4, again
    pointer = (root / "_bloomparquet" / "digest").read_text()
    for where in (f"k = {_k(17) + 1}", f"k = {_k(1_234)}", f"k IN ({_k(5)}, {_k(17) + 1})"):
        got, m = _plan(spark, root, where)
        assert got == oracle(root, where), where
        assert m["bloomDigestFilesNotCovered"] == 0 and m["bloomDigestEntries"] > 0, (where, m)
        _, off = _plan(spark, root, where, DIGEST_OFF)
        _same_decisions(m, off, where)
    # A retrofit that changes no file leaves the digest as it is; a table without one gets none.
    assert {r["status"] for r in bp.retrofit(spark, str(root), "k")} == {"unchanged"}
    assert (root / "_bloomparquet" / "digest").read_text() == pointer
    bare = tmp_path / "bare"
    _frame(spark, range(100)).coalesce(1).write.parquet(str(bare))
    bp.retrofit(spark, str(bare), "k")
    assert not (bare / "_bloomparquet").exists()


def test_our_writer_keeps_the_tables_digest_current(spark, tmp_path: Path, oracle) -> None:
    root = tmp_path / "appended"
    shutil.copytree(_small_table(spark, tmp_path), root)
    assert bp.refresh_digest(spark, str(root)) is None  # no digest yet: none is made
    assert not (root / "_bloomparquet").exists()
    first = bp.build_digest(spark, str(root), "k")
    bp.write_bloom(_frame(spark, range(4_000, 5_000)).coalesce(1), str(root), ["k", "ks"], mode="append")
    # The append rebuilt the digest for k at its bound: a build right after reads no file.
    again = bp.build_digest(spark, str(root), "k")
    assert (again["files"], again["files_reused"], again["bytes_read"]) == (5, 5, 0), again
    assert again["entries"] > first["entries"], (first, again)
    for where in (f"k = {_k(4_321)}", f"k = {_k(4_321) + 1}"):
        got, m = _plan(spark, root, where)
        assert got == oracle(root, where), where
        assert m["bloomDigestFilesNotCovered"] == 0 and m["bloomDigestEntries"] > 0, (where, m)
        _, off = _plan(spark, root, where, DIGEST_OFF)
        _same_decisions(m, off, where)
    # The SQL form without columns rebuilds it the same way, and gives no row where there is no digest.
    (row,) = spark.sql(f"SELECT files, files_reused FROM bloomparquet_digest('{root}')").collect()
    assert (row.files, row.files_reused) == (5, 5), row
    bare = tmp_path / "bare"
    _frame(spark, range(10)).coalesce(1).write.parquet(str(bare))
    assert spark.sql(f"SELECT * FROM bloomparquet_digest('{bare}')").collect() == []
    assert not (bare / "_bloomparquet").exists()


def test_the_sql_function_builds_as_the_python_helper_does(spark, tmp_path: Path) -> None:
    root = tmp_path / "sql"
    shutil.copytree(_small_table(spark, tmp_path), root)
    (row,) = spark.sql(f"SELECT * FROM bloomparquet_digest('{root}', 'k')").collect()
    built = row.asDict()
    assert (built["files"], built["files_skipped"], built["files_reused"]) == (4, 0, 0), built
    helper = bp.build_digest(spark, str(root), "k")
    assert set(built) == set(helper) and helper["files_reused"] == 4, helper
    (full,) = spark.sql(f"SELECT files_reused, entries FROM bloomparquet_digest('{root}', 'k', 0.0001, true)").collect()
    assert (full.files_reused, full.entries) == (0, built["entries"]), full


def _publish(root: Path, data: bytes) -> None:
    """Points the table at a digest file holding ``data``, under a name of its own (as the builder does)."""
    folder = root / "_bloomparquet"
    name = f"digest-{1}-{uuid.uuid4()}.puffin"
    (folder / name).write_bytes(data)
    (folder / "digest").write_text(f"{name} {len(data)}\n")


def test_a_damaged_digest_is_refused_and_changes_nothing(spark, tmp_path: Path, oracle) -> None:
    from bloomparquet.reference.digest import read_digest

    root = tmp_path / "damaged"
    shutil.copytree(_small_table(spark, tmp_path), root)
    _build(spark, root)
    name = (root / "_bloomparquet" / "digest").read_text().split()[0]
    good = (root / "_bloomparquet" / name).read_bytes()
    digest = read_digest(good)
    assert digest.classes, "the table's digest holds classes"
    # Every filter bit of every class cleared (the class blobs follow the file's 4-byte magic): unchecked,
    # the digest would rule out every row group.
    class_bytes = sum(c.rows.nbytes for c in digest.classes)
    cleared = good[:4] + bytes(class_bytes) + good[4 + class_bytes :]
    damages = {
        "truncated": good[:-100],
        "index flipped": good[:-200] + bytes([good[-200] ^ 0xFF]) + good[-199:],
        "bits cleared": cleared,
    }
    hit = f"k = {_k(17)}"
    for damage, data in damages.items():
        _publish(root, data)
        for where in (hit, f"k = {_k(17) + 1}"):
            got, m = _plan(spark, root, where)
            assert got == oracle(root, where), (damage, where)
            assert m["bloomDigestRefused"] == 1 and m["bloomDigestEntriesPruned"] == 0, (damage, m)
            _, off = _plan(spark, root, where, DIGEST_OFF)
            _same_decisions(m, off, where)
    for pointer in ("not a pointer", "digest-1-00000000-0000-0000-0000-000000000000.puffin 10"):
        (root / "_bloomparquet" / "digest").write_text(pointer)
        got, m = _plan(spark, root, hit)
        assert len(got) == 1 and m["bloomDigestRefused"] == 1, (pointer, m)


def _small_table(spark, tmp_path: Path) -> Path:
    out = tmp_path / "small"
    if not out.exists():
        bp.write_bloom(_frame(spark, range(4_000)).repartition(4), str(out), ["k"])
    return out


def test_a_digest_rebuilt_while_queries_plan_is_seen_whole_or_not_at_all(spark, tmp_path: Path, oracle) -> None:
    root = tmp_path / "racing"
    shutil.copytree(_small_table(spark, tmp_path), root)
    stop = threading.Event()
    failures: list[Exception] = []

    def rebuild() -> None:
        try:
            while not stop.is_set():
                _build(spark, root)
        except Exception as e:  # noqa: BLE001 - any failure of the builder is reported by the main thread
            failures.append(e)

    builder = threading.Thread(target=rebuild, daemon=True)
    builder.start()
    try:
        for i in range(12):
            for where in (f"k = {_k(i * 311)}", f"k = {_k(i * 311) + 1}"):
                got, m = _plan(spark, root, where)
                assert got == oracle(root, where), where
                assert m["bloomDigestRefused"] == 0, m
    finally:
        stop.set()
        builder.join(timeout=120)
    assert not failures, failures
