"""bloomparquet over Hadoop's S3A client and a local S3 server: rows equal Spark's ``parquet``
with pushdown off (files from Spark, pyarrow and our writer; plan and task mode; both input
streams), and planning's requests per file, counted by S3A's own statistics:

- a cold point lookup makes at most two requests per file (the tail; then one read of the probed
  blocks), one where the tail holds the filters (our writer's files);
- a warm repeat makes none per file beyond Spark's own listing: versions come from one listing
  of each directory (its etags; not Spark's listing, which can be older than the files), files
  are opened with the listed status (no HEAD);
- an object replaced in place, in the same second, with the same length, is never judged from
  the old one's footer or filters."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import moto.s3.models as moto_s3
import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloomparquet as bp

from ..probe_files import COLUMNS, arrow_table
from ..routes import bloom_routes
from ..spark_conf import PUSHDOWN_OFF, rows, spark_conf
from ..write_format import WRITE_FORMAT
from . import local_s3
from .conftest import BUCKETS

pytestmark = pytest.mark.spark

FILES = 12
ROWS_PER_FILE = 2000
KEY = COLUMNS["i64"][1]  # id -> stored value; ids in the data are even
SCHEMA = "i64 bigint, str string"
MISS, HIT = KEY(301), KEY(300)
WRITERS = ("spark", "pyarrow", "ours")


def _ids(file: int) -> np.ndarray:
    rng = np.random.default_rng(file)
    return (rng.choice(FILES * ROWS_PER_FILE, size=ROWS_PER_FILE, replace=False) * 2 + 2).astype(np.int64)


def _write_local(spark: Any, writer: str, out: Path) -> list[Path]:
    """FILES files of one writer: parquet-java's default 1 MiB filters (Spark), pyarrow's sized
    ones, our writer's (next to the footer)."""
    out.mkdir(parents=True)
    files = []
    for i in range(FILES):
        table = arrow_table(_ids(i), ["i64", "str"])
        target = out / f"part-{i:05d}.parquet"
        if writer == "pyarrow":
            pq.write_table(
                table,
                target,
                row_group_size=ROWS_PER_FILE // 2,
                bloom_filter_options={"i64": {"ndv": ROWS_PER_FILE, "fpp": 0.01}},
            )
            files.append(target)
            continue
        w = spark.createDataFrame(table).coalesce(1).write.option("parquet.block.size", 16 * 1024)
        tmp = out / f"tmp-{i}"
        if writer == "spark":
            w.option("parquet.bloom.filter.enabled#i64", "true").parquet(str(tmp))
        else:
            w.format(WRITE_FORMAT).option("bloom.columns", "i64").save(str(tmp))
        next(tmp.glob("*.parquet")).rename(target)
        files.append(target)
    return files


def _upload(s3: Any, bucket: str, files: list[Path], prefix: str | None = None) -> str:
    prefix = prefix or uuid.uuid4().hex
    for f in files:
        s3.upload_file(str(f), bucket, f"{prefix}/{f.name}")
    return f"s3a://{bucket}/{prefix}"


@pytest.fixture(scope="module")
def local_files(spark, tmp_path_factory) -> dict[str, list[Path]]:
    return {w: _write_local(spark, w, tmp_path_factory.mktemp(w) / "data") for w in WRITERS}


def _requests(spark: Any, bucket: str) -> dict[str, int]:
    return local_s3.request_counts(spark, bucket)


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - before[k] for k in after}


def _counted(spark: Any, bucket: str, run) -> dict[str, int]:
    before = _requests(spark, bucket)
    run()
    return _delta(before, _requests(spark, bucket))


def _ours(spark: Any, path: str, where: str, **options: str):
    return spark.read.format("bloomparquet").schema(SCHEMA).options(**options).load(path).where(where)


def _theirs(spark: Any, path: str, where: str) -> list[tuple]:
    with spark_conf(spark, PUSHDOWN_OFF):
        return rows(spark.read.schema(SCHEMA).parquet(path).where(where))


def _per_file_requests(spark: Any, bucket: str, path: str, where: str, files: int) -> tuple[float, dict[str, int]]:
    """Requests per file of a query beyond Spark's own (its listing: the same read with nothing to
    prune), but for the listings of the directory that version the files (one while planning the
    scan's runtime-filter columns, the first and last file's footers; one while pruning) and the
    table's digest lookup (its pointer, a GET that finds none here: at most one a scan, none while
    the JVM holds what it said)."""
    spark_own = _counted(spark, bucket, lambda: _ours(spark, path, "true").limit(0).collect())
    queried = []
    extra = _delta(
        spark_own, _counted(spark, bucket, lambda: queried.append(_ours(spark, path, where)) or queried[0].collect())
    )
    assert extra["list"] <= 2, extra
    digest = bp.scan_metrics(queried[0])["bloomDigestRequests"]
    assert digest <= 1, digest
    return (local_s3.round_trips(extra) - extra["list"] - digest) / files, extra


@pytest.mark.cluster
@pytest.mark.parametrize("bucket", list(BUCKETS.values()))
@pytest.mark.parametrize("writer", WRITERS)
def test_rows_equal_parquet_over_s3a(spark, s3, local_files, writer: str, bucket: str) -> None:
    path = _upload(s3, bucket, local_files[writer])
    wheres = [f"i64 = {MISS}", f"i64 = {HIT}", f"i64 IN ({MISS}, {HIT}, {KEY(4001)})", f"i64 IN ({KEY(9)}, {KEY(11)})"]
    for mode in ("plan", "task"):
        for where in wheres:
            assert rows(_ours(spark, path, where, **{"bloom.mode": mode})) == _theirs(spark, path, where), (mode, where)
    # A miss prunes every file on the driver: no task reads any.
    df = _ours(spark, path, f"i64 = {MISS}")
    assert df.collect() == []
    assert df.count() == 0


def test_every_route_equals_parquet_over_s3a(spark, s3, local_files) -> None:
    """Every route a query reaches bloomparquet by (DataFrame in plan and task mode, block reads,
    SQL on the path, V2 and V1, catalog tables, a view, plain parquet opted in) over S3A, against
    Spark's ``parquet`` with pushdown off: the versions, statuses and opens of planning on an
    object store are the same on each."""
    path = _upload(s3, BUCKETS["analytics"], local_files["spark"])
    present = pq.read_table(local_files["spark"][0], columns=["i64"]).column("i64")[0].as_py()
    wheres = [f"i64 = {MISS}", f"i64 IN ({MISS}, {present}, {KEY(4001)})"]
    with bloom_routes(spark, path, "s3a_routes") as (oracle, routes):
        with spark_conf(spark, PUSHDOWN_OFF):
            want = {where: rows(oracle.where(where)) for where in wheres}
        wrong = []
        for route, (source, conf) in routes.items():
            with spark_conf(spark, conf):
                wrong += [(route, where) for where in wheres if rows(source.where(where)) != want[where]]
    assert not wrong, wrong
    assert want[wheres[1]] != []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(st.integers(0, 2 * FILES * ROWS_PER_FILE + 3), min_size=1, max_size=12))
def test_rows_equal_parquet_for_any_key_list(spark, s3, local_files, ids: list[int]) -> None:
    path = _hypothesis_path(s3, local_files)
    where = f"i64 IN ({', '.join(str(KEY(i)) for i in ids)})"
    assert rows(_ours(spark, path, where)) == _theirs(spark, path, where)


_uploaded: dict[str, str] = {}


def _hypothesis_path(s3: Any, local_files: dict[str, list[Path]]) -> str:
    if "spark" not in _uploaded:
        _uploaded["spark"] = _upload(s3, BUCKETS["analytics"], local_files["spark"])
    return _uploaded["spark"]


@pytest.mark.parametrize("bucket", list(BUCKETS.values()))
@pytest.mark.parametrize(("writer", "cold_bound"), [("spark", 2), ("pyarrow", 2), ("ours", 1)])
def test_requests_per_file(spark, s3, local_files, writer: str, cold_bound: int, bucket: str) -> None:
    """Cold: the tail, then the probed blocks of parquet-java's 1 MiB filters, in one read; the
    tail alone where it holds the filters. Warm: nothing per file (the cache, keyed by the
    etags of the directory's listing)."""
    path = _upload(s3, bucket, local_files[writer])
    cold, cold_counts = _per_file_requests(spark, bucket, path, f"i64 = {MISS}", FILES)
    assert cold <= cold_bound, cold_counts
    assert cold_counts["head"] == 0, cold_counts  # no status call per file: the listing's etags and statuses
    assert _per_file_requests(spark, bucket, path, f"i64 = {MISS}", FILES)[0] == 0
    # A short IN list: its other values' blocks in one more read per file at most (the footer is held).
    short_in = f"i64 IN ({MISS}, {KEY(9)}, {KEY(11)})"
    more, more_counts = _per_file_requests(spark, bucket, path, short_in, FILES)
    assert more <= cold_bound - 1, more_counts
    assert _per_file_requests(spark, bucket, path, short_in, FILES)[0] == 0


def test_planning_job_opens_files_with_the_listed_statuses(spark, s3, local_files) -> None:
    """Planned in a job (spark.bloomparquet.planning.distributed=executors), the files go to the
    executors with the statuses the driver's listing gave them: S3A's analytics stream (Hadoop
    3.5's default, which asks an object's metadata when opened without S3A's own status) makes
    no HEAD there either, and the decisions and rows are the driver's."""
    path = _upload(s3, BUCKETS["analytics"], local_files["spark"])
    where = f"i64 IN ({MISS}, {HIT})"
    with spark_conf(spark, {"spark.bloomparquet.planning.distributed": "executors"}):
        cold, counts = _per_file_requests(spark, BUCKETS["analytics"], path, f"i64 = {MISS}", FILES)
        got = rows(_ours(spark, path, where))
        uncached = _ours(spark, path, where, **{"bloom.cache": "false"})
        uncached.collect()
        job = bp.scan_metrics(uncached)
    assert cold <= 2 and counts["head"] == 0, counts
    assert job["bloomFilesPlannedOnExecutors"] == FILES, job
    assert got == _theirs(spark, path, where)


@pytest.mark.cluster
@pytest.mark.parametrize("bucket", list(BUCKETS.values()))
@pytest.mark.parametrize("writer", WRITERS)
def test_planning_job_over_s3a_gives_the_drivers_rows(spark, s3, local_files, writer: str, bucket: str) -> None:
    """Planned in a job, each file read by an executor's own S3A client with the status the driver
    listed (shipped with the job; executors in JVMs of their own on local-cluster): the rows are
    Spark's for every writer and input stream, and every file was planned there."""
    path = _upload(s3, bucket, local_files[writer])
    wheres = [f"i64 = {MISS}", f"i64 = {HIT}", f"i64 IN ({MISS}, {HIT}, {KEY(4001)})"]
    with spark_conf(spark, {"spark.bloomparquet.planning.distributed": "executors"}):
        for where in wheres:
            df = _ours(spark, path, where, **{"bloom.cache": "false"})
            assert rows(df) == _theirs(spark, path, where), where
            assert bp.scan_metrics(df)["bloomFilesPlannedOnExecutors"] == FILES, where


def test_spark_listing_keeps_s3a_etags(spark, s3, local_files) -> None:
    """Spark's listing of S3A (serial, and parallel past its threshold) keeps S3A's own statuses,
    etags included (on this Spark and Hadoop). Pruning still lists each directory itself: a
    table's listing is cached until REFRESH TABLE, older than the files it names."""
    bucket = BUCKETS["analytics"]
    prefix = uuid.uuid4().hex
    for d in range(4):
        _upload(s3, bucket, local_files["ours"][d::4], f"{prefix}/part={d}")
    path = f"s3a://{bucket}/{prefix}"
    for threshold in ("32", "1"):
        with spark_conf(spark, {"spark.sql.sources.parallelPartitionDiscovery.threshold": threshold}):
            listed = spark.read.parquet(path)._jdf.queryExecution().analyzed().relation().location().allFiles()
            etags = {listed.apply(i).getEtag() for i in range(listed.size())}
            assert len(etags) == FILES
            assert None not in etags


def test_versions_from_one_listing_per_directory(spark, s3, local_files) -> None:
    """Files whose statuses lack etags (Delta's log, a listing that rebuilt them) are versioned by
    one listing of each directory, not a status call each; a directory of one file takes the status
    call; a file changed since its key was taken gets no version (it is read fresh)."""
    bucket = BUCKETS["classic"]
    prefix = uuid.uuid4().hex
    files = local_files["ours"]
    dirs = {"a": files[:5], "b": files[5:11], "single": files[11:]}
    for d, fs in dirs.items():
        _upload(s3, bucket, fs, f"{prefix}/{d}")
    jvm = spark._jvm
    conf = spark._jsc.hadoopConfiguration()
    fs = jvm.org.apache.hadoop.fs.Path(f"s3a://{bucket}/").getFileSystem(conf)
    keys = []
    for d, local in dirs.items():
        for f in local:
            status = fs.getFileStatus(jvm.org.apache.hadoop.fs.Path(f"s3a://{bucket}/{prefix}/{d}/{f.name}"))
            keys.append((status.getPath().toString(), status.getLen(), status.getModificationTime(), f"{d}/{f.name}"))
    changed = keys[0][:2] + (keys[0][2] - 1000,)  # listed a second earlier than the store now says
    paths, lengths, mtimes = (list(c) for c in zip(*[k[:3] for k in keys[1:]], changed, strict=True))
    bridge = jvm.io.bloomparquet.testing.ListedVersionsBridge
    before = _requests(spark, bucket)
    versions = list(bridge.versions(paths, lengths, mtimes, conf))
    used = _delta(before, _requests(spark, bucket))
    assert used["list"] == 2, used  # one page each for "a" and "b"
    assert used["head"] == 0 and used["get"] == 0, used
    etags = {name: s3.head_object(Bucket=bucket, Key=f"{prefix}/{name}")["ETag"] for *_, name in keys}
    by_name = dict(zip([k[3] for k in keys[1:]] + ["changed"], versions, strict=True))
    assert by_name["changed"] is None
    assert by_name[f"single/{files[11].name}"] is None  # left to its own status call
    for name, version in by_name.items():
        if name != "changed" and not name.startswith("single/"):
            assert version == etags[name], name


@pytest.mark.parametrize("route", ["path", "table"])
@pytest.mark.parametrize("neighbours", [0, 1])
def test_object_replaced_in_place_same_second_same_length(
    spark, s3, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, route: str, neighbours: int
) -> None:
    """Two files of one length, one holding HIT and the other not, uploaded to one key within
    one second of the store's clock: the store shows the same length and time, only the etag differs, and the cache
    (warm with the first) must not judge the second. Alone in its directory the file is versioned
    by its status call, with a neighbour by the directory's listing; through a path, and through a
    catalog table whose listing Spark cached before the replacement (no REFRESH TABLE)."""
    bucket = BUCKETS["analytics"]
    first, second = tmp_path / "a.parquet", tmp_path / "b.parquet"
    base = np.arange(ROWS_PER_FILE, dtype=np.int64) * 2 + 10_000  # neither holds HIT's id (300)
    opts = {
        "bloom_filter_options": {"i64": {"ndv": ROWS_PER_FILE, "fpp": 0.01}},
        "compression": "none",
        "use_dictionary": False,
        "write_statistics": False,
    }
    pq.write_table(arrow_table(np.concatenate([[300], base[1:]]), ["i64", "str"]), first, **opts)
    pq.write_table(arrow_table(np.concatenate([[302], base[1:]]), ["i64", "str"]), second, **opts)
    assert first.stat().st_size == second.stat().st_size
    prefix = uuid.uuid4().hex
    path = f"s3a://{bucket}/{prefix}"
    if neighbours:
        other = tmp_path / "z.parquet"
        pq.write_table(arrow_table(base + 1_000_000, ["i64", "str"]), other, **opts)
        _upload(s3, bucket, [other], prefix)
    hit_row = [(HIT, COLUMNS["str"][1](300))]

    def ours(where: str) -> list[tuple]:
        return rows(spark.table("ours").where(where)) if route == "table" else rows(_ours(spark, path, where))

    def theirs(where: str) -> list[tuple]:
        if route == "path":
            return _theirs(spark, path, where)
        with spark_conf(spark, PUSHDOWN_OFF):
            return rows(spark.table("theirs").where(where))

    # Both uploads within one second of the store's clock (S3's times are whole seconds), however long
    # the queries between them take on a loaded machine: the server's clock (moto's, in this process)
    # holds still meanwhile.
    with monkeypatch.context() as held:
        now = moto_s3.utcnow()
        held.setattr(moto_s3, "utcnow", lambda: now)
        _upload(s3, bucket, [first], prefix)
        listed_first = s3.head_object(Bucket=bucket, Key=f"{prefix}/a.parquet")
        if route == "table":  # listed now, and cached by Spark until REFRESH TABLE
            for name, fmt in (("ours", "bloomparquet"), ("theirs", "parquet")):
                spark.sql(f"DROP TABLE IF EXISTS {name}")
                spark.sql(f"CREATE TABLE {name} ({SCHEMA}) USING {fmt} LOCATION '{path}'")
        assert ours(f"i64 = {HIT}") == hit_row
        assert theirs(f"i64 = {HIT}") == hit_row
        s3.upload_file(str(second), bucket, f"{prefix}/a.parquet")
        listed_second = s3.head_object(Bucket=bucket, Key=f"{prefix}/a.parquet")
    assert listed_first["LastModified"] == listed_second["LastModified"]
    assert listed_first["ContentLength"] == listed_second["ContentLength"]
    assert listed_first["ETag"] != listed_second["ETag"]
    for where in (f"i64 = {HIT}", f"i64 = {KEY(302)}"):
        assert ours(where) == theirs(where), where
    assert theirs(f"i64 = {KEY(302)}") != []
    assert ours(f"i64 = {HIT}") == []


@pytest.mark.parametrize("bucket", list(BUCKETS.values()))
@pytest.mark.parametrize("writer", WRITERS)
def test_a_digest_plans_a_point_miss_with_no_request_per_file(spark, s3, local_files, writer: str, bucket: str) -> None:
    """With the table's bloom digest (built over S3A by a Spark job; the digest and its pointer PUT),
    a cold point miss (nothing held in the JVM) makes no request per file beyond Spark's listing and
    the directory listing that versions the files: the pointer and the digest's tail (and their
    HEADs on the analytics stream), at most four in all, plus a footer read per file the digest keeps (filters of p <= 1 %: each of the 48 row
    groups kept with probability <= 1 %, some file with <= 1 - 0.99^48 = 38 %). Rows are Spark's."""
    path = _upload(s3, bucket, local_files[writer])
    built = bp.build_digest(spark, path, "i64")
    assert (built["files"], built["files_skipped"]) == (FILES, 0), built
    where = f"i64 = {MISS}"
    with spark_conf(spark, {"spark.bloomparquet.read.cache": "false"}):
        spark_own = _counted(spark, bucket, lambda: _ours(spark, path, "true").limit(0).collect())
        queried = []
        extra = _delta(
            spark_own,
            _counted(spark, bucket, lambda: queried.append(_ours(spark, path, where)) or queried[0].collect()),
        )
        m = bp.scan_metrics(queried[0])
    assert m["bloomDigestEntries"] == m["bloomRowGroupsTotal"] > 0 and m["bloomDigestRefused"] == 0, m
    # S3A's analytics stream asks an object's metadata (a HEAD) when opened without S3A's own status:
    # the pointer's and the digest's, which no listing gave (the data files are opened with the listing's).
    assert extra["head"] <= (2 if bucket == BUCKETS["analytics"] else 0) and extra["list"] <= 2, extra
    assert m["bloomFootersRead"] <= 2, m
    assert local_s3.round_trips(extra) - extra["list"] - 2 * m["bloomFootersRead"] <= 4, (extra, m)
    assert m["bloomDigestRequests"] <= 4, m
    for w in (where, f"i64 = {HIT}", f"i64 IN ({MISS}, {HIT}, {KEY(4001)})"):
        assert rows(_ours(spark, path, w)) == _theirs(spark, path, w), w


@pytest.mark.parametrize("bucket", list(BUCKETS.values()))
def test_our_writer_and_retrofit_keep_the_digest_current_over_s3a(spark, s3, local_files, bucket: str) -> None:
    """An append by ``write_bloom`` and a retrofit into an S3A table with a digest rebuild it (S3A's own
    recursive listing, the pointer replaced in place and read again as it is now on either stream): a
    build right after reuses every file and reads none."""
    path = _upload(s3, bucket, local_files["pyarrow"])
    bp.retrofit(spark, path, "i64")  # the files get filters; no digest yet, so none is made
    assert bp.refresh_digest(spark, path) is None
    bp.build_digest(spark, path, "i64")
    appended = spark.createDataFrame([(KEY(FILES * ROWS_PER_FILE + 1), "new")], SCHEMA).coalesce(1)
    bp.write_bloom(appended, path, "i64", mode="append")
    again = bp.build_digest(spark, path, "i64")
    assert (again["files"], again["files_reused"], again["bytes_read"]) == (FILES + 1, FILES + 1, 0), again
    for w in (f"i64 = {KEY(FILES * ROWS_PER_FILE + 1)}", f"i64 = {MISS}", f"i64 = {HIT}"):
        assert rows(_ours(spark, path, w)) == _theirs(spark, path, w), w
