"""The footer/filter cache under file churn. Its key is path, length,
modification time and, where the store offers one, the etag: a file replaced by
another of the same length and modification time is re-read on a store with
etags (the test file system ``etag:`` gives each file its content's MD5, as
object stores do). Then a soak: threads on one session (cache on) and on a
second session (cache off) query while files are overwritten (same length, same
modification time), deleted and added.

Oracle. *Between* queries (churn under a write lock, each query and its
reference under a read lock): the rows equal Spark's ``parquet`` with pushdown
off over the same files. *During* queries (churn without the lock): every row
returned belongs to a version of its file that existed at some moment of the
query (never a stale row), and the only errors are those Spark's ``parquet``
raises too when a listed file vanishes (file not found); missing rows are not
judged there, since Spark's own reader may see either version.
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from pathlib import Path

import pytest

import bloomparquet as bp
from bloomparquet._session import java_map

from .spark_conf import PUSHDOWN_OFF, spark_conf

pytestmark = pytest.mark.spark

FILES, ROWS = 4, 3_000
SOAK_SECONDS = 180 if os.environ.get("BLOOMPARQUET_LONG") == "1" else 14


@pytest.fixture(scope="module")
def versions(spark, tmp_path_factory) -> dict[tuple[int, int], Path]:
    """(file, generation) -> a file by our writer: generation g holds keys ``2 * n + g`` of file f's range.
    Plain, uncompressed: both generations of a file have the same length."""
    pool = tmp_path_factory.mktemp("churn-pool")
    for gen in (0, 1):
        (
            spark.range(0, FILES * ROWS)
            .selectExpr(
                f"CAST(id DIV {ROWS} AS INT) AS f",
                f"CAST(id DIV {ROWS} AS INT) AS fid",
                f"id * 2 + {gen} AS k",
                f"{gen} AS gen",
            )
            .coalesce(1)
            .write.format("bloomparquet")
            .option("bloom.columns", "k")
            .option("compression", "none")
            .option("parquet.enable.dictionary", "false")
            .partitionBy("f")
            .save(str(pool / str(gen)))
        )
    out = {(f, g): next((pool / str(g) / f"f={f}").glob("*.parquet")) for f in range(FILES) for g in (0, 1)}
    for f in range(FILES):
        assert out[(f, 0)].stat().st_size == out[(f, 1)].stat().st_size
    return out


@pytest.fixture
def etag_fs(spark):
    with spark_conf(spark, java_map(spark._jvm.io.bloomparquet.testing.EtagFileSystem.settings())):
        yield


def _place(src: Path, dst: Path, mtime_ns: int | None) -> None:
    """Atomically replaces ``dst`` by a copy of ``src``; with ``mtime_ns``, the copy keeps that time."""
    tmp = dst.parent / f".{dst.name}.tmp"
    shutil.copyfile(src, tmp)
    if mtime_ns is not None:
        os.utime(tmp, ns=(mtime_ns, mtime_ns))
    os.replace(tmp, dst)


def _route(spark, url: str, route: str, cache: bool = True):
    if route == "sql":
        return spark.sql(f"SELECT * FROM bloomparquet.`{url}`")
    return bp.read_bloom(spark, url, **{"bloom.cache": cache, "bloom.mode": route})


ROUTES = ("plan", "task", "sql")


@pytest.mark.cluster
def test_same_length_same_mtime_new_etag_is_reread(spark, versions, tmp_path: Path, etag_fs) -> None:
    table = tmp_path / "t"
    table.mkdir()
    target = table / "f0.parquet"
    _place(versions[(0, 0)], target, None)
    mtime = target.stat().st_mtime_ns
    url = f"etag://{table}"
    odd = 2 * 17 + 1  # in generation 1 only
    for name in ROUTES:  # generation 0 read and cached: the key is absent
        assert _route(spark, url, name).where(f"k = {odd}").collect() == [], name
    _place(versions[(0, 1)], target, mtime)
    assert target.stat().st_mtime_ns == mtime
    with spark_conf(spark, PUSHDOWN_OFF):
        expected = spark.read.parquet(url).where(f"k = {odd}").collect()
    assert len(expected) == 1
    for name in ROUTES:
        assert _route(spark, url, name).where(f"k = {odd}").collect() == expected, name


@pytest.mark.cluster
def test_reused_task_mode_dataframe_reads_a_replaced_file_anew(spark, versions, tmp_path: Path, etag_fs) -> None:
    """A DataFrame keeps the listing it was made with, and a second action on it reuses its physical
    plan. In task mode the decisions are made in the tasks of each action: a file replaced in place since
    (same length, same modification time) is judged by its new filters, the etag asked of the store.
    (Plan-time decisions are part of the reused plan: the user guide says so.)"""
    table = tmp_path / "t"
    table.mkdir()
    target = table / "f0.parquet"
    _place(versions[(0, 0)], target, None)
    mtime = target.stat().st_mtime_ns
    odd = 2 * 17 + 1  # in generation 1 only
    df = _route(spark, f"etag://{table}", "task").where(f"k = {odd}")
    assert df.collect() == []  # generation 0 read and cached under its etag: the key is absent
    _place(versions[(0, 1)], target, mtime)
    assert [(r.k, r.gen) for r in df.collect()] == [(odd, 1)]


# The plain local file system, every route: the version is the inode and the change time (no user call
# sets a ctime), so a copy that keeps the length and the modification time is still another file.
LOCAL_ROUTES = ("plan", "task", "sql", "table", "parquet")


def _local_route(spark, table: Path, route: str):
    if route == "table":
        spark.sql("DROP TABLE IF EXISTS churn_t")  # external: its files stay
        spark.sql(f"CREATE TABLE churn_t USING bloomparquet LOCATION '{table}'")
        return spark.table("churn_t")
    if route == "parquet":
        return spark.read.parquet(str(table))
    return _route(spark, str(table), route)


def _replace_keeping_times(src: Path, dst: Path, how: str) -> None:
    """``rename``: a new file moved over ``dst`` (``rsync -t``); ``overwrite``: ``dst``'s own inode
    rewritten (``cp --preserve=timestamps``). Either way ``dst`` keeps its length and modification time."""
    before = dst.stat()
    if how == "rename":
        _place(src, dst, before.st_mtime_ns)
    else:
        shutil.copyfile(src, dst)
        os.utime(dst, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert dst.stat().st_ino == before.st_ino
    assert (dst.stat().st_size, dst.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)


@pytest.mark.cluster
@pytest.mark.parametrize("how", ["rename", "overwrite"])
def test_local_file_replaced_with_same_length_and_mtime_is_reread(spark, versions, tmp_path: Path, how: str) -> None:
    table = tmp_path / "t"
    table.mkdir()
    target = table / "f0.parquet"
    _place(versions[(0, 0)], target, None)
    odd = 2 * 17 + 1  # in generation 1 only
    with spark_conf(spark, {"spark.bloomparquet.parquet.enabled": "true"}):
        for route in LOCAL_ROUTES:  # generation 0 read and cached: the key is absent
            assert _local_route(spark, table, route).where(f"k = {odd}").collect() == [], route
        _replace_keeping_times(versions[(0, 1)], target, how)
        with spark_conf(spark, PUSHDOWN_OFF):
            expected = spark.read.parquet(str(table)).where(f"k = {odd}").collect()
        assert len(expected) == 1
        for route in LOCAL_ROUTES:
            assert _local_route(spark, table, route).where(f"k = {odd}").collect() == expected, route


@pytest.fixture(scope="module")
def layered(spark, tmp_path_factory) -> dict[int, Path]:
    """Generation -> one file of several row groups (keys ``2 * n + g``, ascending: the key's parity is
    its generation), both of one length."""
    pool = tmp_path_factory.mktemp("layered")
    for gen in (0, 1):
        (
            spark.range(0, ROWS)
            .selectExpr(f"id * 2 + {gen} AS k")
            .coalesce(1)
            .write.format("bloomparquet")
            .option("bloom.columns", "k")
            .option("compression", "none")
            .option("parquet.enable.dictionary", "false")
            .option("parquet.block.size", 8192)
            # A page's CRC is a varint in its header: its length would differ between generations.
            .option("parquet.page.write-checksum.enabled", "false")
            .save(str(pool / str(gen)))
        )
    out = {g: next((pool / str(g)).glob("*.parquet")) for g in (0, 1)}
    assert out[0].stat().st_size == out[1].stat().st_size
    return out


@pytest.mark.cluster
@pytest.mark.parametrize("how", ["rename", "overwrite"])
def test_reused_plan_mode_dataframe_reads_a_cut_file_whole_once_replaced(
    spark, layered, tmp_path: Path, how: str
) -> None:
    """Plan mode cuts a file's splits down to the row groups its footer left in play, and a second
    action reuses those splits. The task checks the file is still the version planning judged: one
    replaced since (same length, same modification time) is read whole, once, by one task."""
    table = tmp_path / "t"
    table.mkdir()
    target = table / "f0.parquet"
    _place(layered[0], target, None)
    low, high = 2 * 10, 2 * (ROWS - 10) + 1  # `low` in generation 0's first row group; `high` in generation 1 only
    where = f"k = {low} OR k = {high}"
    df = bp.read_bloom(spark, str(table), **{"bloom.mode": "plan"}).where(where)
    assert [r.k for r in df.collect()] == [low]
    first = bp.scan_metrics(df)
    assert first["bloomRowGroupsTotal"] > 2 and first["bloomRowGroupsPrunedByStats"] > 0, first  # the file was cut
    assert first["bloomFilesChangedSincePlanning"] == 0
    _replace_keeping_times(layered[1], target, how)
    with spark_conf(spark, PUSHDOWN_OFF):
        expected = sorted(r.k for r in spark.read.parquet(str(table)).where(where).collect())
    assert expected == [high]
    assert sorted(r.k for r in df.collect()) == expected
    assert bp.scan_metrics(df)["bloomFilesChangedSincePlanning"] == 1


class _RWLock:
    """Many readers (queries) or one writer (a churn event); a waiting writer goes first."""

    def __init__(self) -> None:
        self._cond, self._readers, self._writing, self._waiting = threading.Condition(), 0, False, 0

    def read(self):
        return _Held(self, write=False)

    def write(self):
        return _Held(self, write=True)


class _Held:
    def __init__(self, lock: _RWLock, write: bool) -> None:
        self.lock, self.write = lock, write

    def __enter__(self) -> None:
        c = self.lock._cond
        with c:
            if self.write:
                self.lock._waiting += 1
                c.wait_for(lambda: not self.lock._writing and self.lock._readers == 0)
                self.lock._waiting -= 1
                self.lock._writing = True
            else:
                c.wait_for(lambda: not self.lock._writing and self.lock._waiting == 0)
                self.lock._readers += 1

    def __exit__(self, *exc: object) -> None:
        c = self.lock._cond
        with c:
            if self.write:
                self.lock._writing = False
            else:
                self.lock._readers -= 1
            c.notify_all()


class _Table:
    """The table directory and the history of its files: [start, end, file, generation or None when
    absent], an event's start and end taken around it, so a query that meets it sees either side.
    An event enters the history before it touches the file (its end open until it is done): a query
    that read the new version and is judged before the churning thread runs again still finds it."""

    def __init__(self, root: Path, versions: dict) -> None:
        self.root, self.versions, self.mutex = root, versions, threading.Lock()
        self.history: list[list] = []
        self.events = 0
        for f in range(FILES):
            _place(versions[(f, 0)], self._path(f), None)
            self.history.append([time.monotonic(), time.monotonic(), f, 0])

    def _path(self, f: int) -> Path:
        return self.root / f"f{f}.parquet"

    def current(self, f: int) -> int | None:
        return next((g for _, _, ff, g in reversed(self.history) if ff == f), None)

    def churn(self, rng: random.Random) -> None:
        """One event: overwrite (same length; half the time the same modification time), delete or add."""
        f = rng.randrange(FILES)
        path, now = self._path(f), self.current(f)
        if now is None:
            new = rng.randrange(2)
        elif rng.random() < 0.25 and sum(self.current(x) is not None for x in range(FILES)) > 1:
            new = None
        else:
            new = 1 - now
        event = [time.monotonic(), float("inf"), f, new]
        with self.mutex:
            self.history.append(event)
        if now is None:
            _place(self.versions[(f, new)], path, None)
        elif new is None:
            path.unlink()
        else:
            _place(self.versions[(f, new)], path, path.stat().st_mtime_ns if rng.random() < 0.5 else None)
        with self.mutex:
            event[1] = time.monotonic()
            self.events += 1

    def existed_during(self, f: int, gen: int, start: float, end: float) -> bool:
        with self.mutex:
            before = [g for _, t1, ff, g in self.history if ff == f and t1 <= start]
            during = [g for t0, t1, ff, g in self.history if ff == f and t1 > start and t0 <= end]
        return gen in (before[-1:] + during)


def _causes(e: Exception) -> str:
    """The whole JVM cause chain (class and message of each), where the error came from the JVM."""
    parts = [str(e).split("\n")[0]]
    t = getattr(e, "_origin", None) or getattr(e, "java_exception", None)  # PySpark's error, or py4j's
    while t is not None and len(parts) < 20:
        parts.append(f"{t.getClass().getName()}: {t.getMessage()}")
        t = t.getCause()
    return " | ".join(parts)


def _vanished(e: Exception) -> bool:
    """The error Spark's parquet raises too when a listed file is deleted before it is read
    (while reading, or while inferring the schema of ``bloomparquet.`path```: then wrapped).
    Deleted between a task's open and its row-group read, parquet-java's vectored read in
    Spark's own reader reopens the local file by path: ``NoSuchFileException`` (FAILED_READ_FILE.NO_HINT)."""
    s = _causes(e)
    return any(m in s for m in ("FileNotFoundException", "NoSuchFileException", "FILE_NOT_EXIST", "does not exist"))


def test_churn_soak(spark, versions, tmp_path: Path, etag_fs) -> None:
    root = tmp_path / "t"
    root.mkdir()
    table, lock, stop = _Table(root, versions), _RWLock(), threading.Event()
    url = f"etag://{root}"
    other, oracle = spark.newSession(), spark.newSession()  # the oracle's settings don't touch the queries' sessions
    for k, v in dict(spark._jvm.io.bloomparquet.testing.EtagFileSystem.settings()).items():
        other.conf.set(k, v)
        oracle.conf.set(k, v)
    for k, v in PUSHDOWN_OFF.items():
        oracle.conf.set(k, v)
    stats = {"queries": 0, "checked_between": 0, "checked_during": 0, "vanished": 0, "errors": [], "stale": []}
    phase = {"during": False}
    guard = threading.Lock()

    def query(session, cache: bool, seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            keys = [rng.randrange(2 * FILES * ROWS) for _ in range(3)]
            where = f"k IN ({', '.join(map(str, keys))})"
            route = rng.choice(ROUTES)
            during = phase["during"]
            try:
                if during:
                    start = time.monotonic()
                    rows = _route(session, url, route, cache).where(where).collect()
                    end = time.monotonic()
                    bad = [r for r in rows if not table.existed_during(r.fid, r.gen, start, end)]
                    with guard:
                        stats["checked_during"] += 1
                        stats["stale"] += [(route, "during", r) for r in bad]
                else:
                    with lock.read():
                        if phase["during"]:  # switched while this query waited: no oracle now
                            continue
                        got = sorted(_route(session, url, route, cache).where(where).collect())
                        expected = sorted(oracle.read.parquet(url).where(where).collect())
                    with guard:
                        stats["checked_between"] += 1
                        if got != expected:
                            stats["stale"].append((route, "between", where, got, expected))
            except Exception as e:  # noqa: BLE001 - sorted into allowed and not
                with guard:
                    if during and _vanished(e):
                        stats["vanished"] += 1
                    else:
                        stats["errors"].append((route, during, _causes(e)[:3000]))
            with guard:
                stats["queries"] += 1

    threads = [threading.Thread(target=query, args=(spark, True, s)) for s in range(3)]
    threads.append(threading.Thread(target=query, args=(other, False, 99)))
    for t in threads:
        t.start()
    rng, deadline = random.Random(7), time.monotonic() + SOAK_SECONDS
    # On a loaded machine few queries finish while files churn: go on (up to 3x) until one was checked.
    overtime = deadline + 2 * SOAK_SECONDS

    def going() -> bool:
        now = time.monotonic()
        with guard:
            unchecked = stats["checked_during"] == 0
        return now < deadline or (unchecked and now < overtime)

    try:
        while going():
            if phase["during"]:
                table.churn(rng)
            else:
                with lock.write():  # queries see the switch only once they hold the read lock
                    phase["during"] = time.monotonic() > deadline - SOAK_SECONDS / 2
                    table.churn(rng)
            time.sleep(rng.uniform(0.05, 0.3))
    finally:
        stop.set()
        for t in threads:
            t.join(120)
    report = {k: (len(v) if isinstance(v, list) else v) for k, v in stats.items()}
    report.update(threads=len(threads), churn_events=table.events, seconds=SOAK_SECONDS)
    print(f"\nchurn soak: {report}")
    assert not stats["errors"], stats["errors"][:3]
    assert not stats["stale"], stats["stale"][:3]
    assert stats["checked_between"] > 0 and stats["checked_during"] > 0 and table.events > 0
