"""Lake-scale planning with a table's bloom digest through Hadoop's S3A client, against a local S3
server: cold point lookups over --files objects with the digest and without it, each request
counted by S3A's own statistics. The S3A rows of "Bloom digest" in docs/benchmarks.md.

    .venv/bin/python bench/digest_s3a.py                 # 10,000 objects
    .venv/bin/python bench/digest_s3a.py --files 1000    # a quick look

Data: the files of ``bench/digest_planning.py`` (Spark's ``parquet``, parquet-java's filters on ``k``
sized for the 200 values of a file's one row group at its default 1 %), written locally and
uploaded to a moto server in this process; S3A with its classic input stream. The digest is built
over S3A (``bp.build_digest``, a Spark job; its file and pointer PUT).

Each query is a new DataFrame, so its requests hold Spark's own listing; "beyond Spark's" subtracts
what the same read with nothing to prune asks (Spark's listing and root checks), measured just
before. Planning requests are those of making the scan's splits (``df.rdd``, no task run): the
directory listing that versions the files, the digest's requests, and the footers of the files
the digest keeps where they are judged on the driver (``bloom.digestSurvivors=plan``; with ``task``,
the default, their tasks read them); the query's add the tasks' reads of the files left. Cold:
``bloom.cache=false`` (nothing held in the JVM). Each query first runs once unreported, as in
``bench/digest_planning.py``.
Rows are checked against Spark's ``parquet`` with its pushdown off.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import bloomparquet as bp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.s3a import local_s3  # noqa: E402

from digest_planning import FPP, _conf, _key, _write  # noqa: E402

BUCKET = "digest"
COLD = {"spark.bloomparquet.read.cache": "false"}
PUSHDOWN_OFF = {"spark.sql.parquet.filterPushdown": "false", "spark.bloomparquet.read.enabled": "false"}


def _upload(s3: Any, files: list[Path], prefix: str) -> str:
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda f: s3.upload_file(str(f), BUCKET, f"{prefix}/{f.name}"), files))
    return f"s3a://{BUCKET}/{prefix}"


def _counted(spark: Any, run) -> dict[str, int]:
    before = local_s3.request_counts(spark, BUCKET)
    run()
    after = local_s3.request_counts(spark, BUCKET)
    return {k: after[k] - before[k] for k in after}


def _query(spark: Any, path: str, schema: Any, where: str, digest: bool, survivors: str) -> dict[str, Any]:
    def read(w: str):
        return spark.read.format("bloomparquet").schema(schema).load(path).where(w)

    settings = {
        **COLD,
        "spark.bloomparquet.read.digest": str(digest).lower(),
        "spark.bloomparquet.read.digestSurvivors": survivors,
    }
    with _conf(spark, settings):
        # Planning alone (the scan's splits made, no task run): the query's and Spark's own for a read with nothing to prune.
        t = time.perf_counter()
        planned = _counted(spark, lambda: read(where).rdd.getNumPartitions())
        planning_s = time.perf_counter() - t
        spark_planned = _counted(spark, lambda: read("true").rdd.getNumPartitions())
        spark_own = _counted(spark, lambda: read("true").limit(0).collect())
        q = read(where)
        t = time.perf_counter()
        counts = _counted(spark, q.collect)
        wall = time.perf_counter() - t
    m = bp.scan_metrics(q)
    beyond = {k: counts[k] - spark_own[k] for k in counts}
    planned_beyond = {k: planned[k] - spark_planned[k] for k in planned}
    return {
        "query_s": round(wall, 3),
        "planning_s": round(planning_s, 3),
        "pruning_s": m["bloomPruningTimeMs"] / 1000,
        "planning_requests": local_s3.round_trips(planned),
        "planning_requests_beyond_spark": local_s3.round_trips(planned) - local_s3.round_trips(spark_planned),
        # By kind: the listing that versions the files (LIST pages), the digest's and footers' GETs, HEADs.
        "planning_beyond_spark_by_kind": {k: planned_beyond[k] for k in ("list", "get", "head")},
        "requests": local_s3.round_trips(counts),
        "spark_own_requests": local_s3.round_trips(spark_own),
        "requests_beyond_spark": local_s3.round_trips(beyond),
        "lists_beyond_spark": beyond["list"],
        "heads_beyond_spark": beyond["head"],
        "gets_beyond_spark": beyond["get"],
        "footers_read": m["bloomFootersRead"],
        "files_left": m["bloomFilesTotal"] - m["bloomFilesPruned"],
        "digest_requests": m["bloomDigestRequests"],
        "digest_entries": m["bloomDigestEntries"],
        "digest_entries_pruned": m["bloomDigestEntriesPruned"],
    }


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--files", type=int, default=10_000)
    args.add_argument("--rows-per-group", type=int, default=200)
    args.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "bp-digest-planning"))
    args.add_argument("--out", default=str(ROOT / "bench-out" / "digest_s3a"))
    a = args.parse_args()
    server, endpoint = local_s3.start_server()
    s3 = local_s3.client(endpoint, [BUCKET])
    conf = {
        **local_s3.session_conf(endpoint, **{"input.stream.type": "classic"}),
        "spark.driver.memory": "6g",
        "spark.ui.enabled": "false",
    }
    spark = bp.session(master="local[2]", **conf)
    spark.sparkContext.setLogLevel("ERROR")
    local = Path(a.work) / f"distinct-{a.files}x1x{a.rows_per_group}"
    _write(spark, local, a.files, 1, a.rows_per_group)
    files = sorted(local.glob("*.parquet"))
    t = time.perf_counter()
    path = _upload(s3, files, "table")
    print(f"{len(files):,} objects uploaded in {time.perf_counter() - t:.0f} s", flush=True)
    schema = spark.read.parquet(str(local)).schema
    built: dict[str, Any] = {}
    t = time.perf_counter()
    build_requests = _counted(spark, lambda: built.update(bp.build_digest(spark, path, "k")))
    build_s = time.perf_counter() - t
    print(f"digest {built} in {build_s:.0f} s, {build_requests}", flush=True)
    results: list[dict[str, Any]] = [
        {
            "files": len(files),
            "build": {**built, "seconds": round(build_s, 1), "requests": local_s3.round_trips(build_requests)},
        }
    ]
    queries = {
        "point miss": (f"k = {_key(17) + 1}", 1),
        "IN 10 (misses)": ("k IN ({})".format(", ".join(str(_key(i) + 1) for i in range(10))), 10),
        "point hit": (f"k = {_key(12_345)}", 1),
    }
    for query, (where, n) in queries.items():
        with _conf(spark, PUSHDOWN_OFF):
            expected = sorted(spark.read.schema(schema).parquet(path).where(where).collect())
        _query(spark, path, schema, where, True, "plan")  # unreported, as in bench/digest_planning.py
        for digest, survivors in ((True, "task"), (True, "plan"), (False, "plan")):
            r = _query(spark, path, schema, where, digest, survivors)
            with _conf(spark, {"spark.bloomparquet.read.digestSurvivors": survivors}):
                got = sorted(spark.read.format("bloomparquet").schema(schema).load(path).where(where).collect())
            if got != expected:
                raise SystemExit(f"{query}, digest={digest}: {len(got)} rows, Spark's parquet {len(expected)}")
            bound = 1 - (1 - FPP) ** n
            r.update(
                files=len(files),
                query=query,
                digest=digest,
                survivors=survivors,
                rows=len(expected),
                fpp=FPP,
                row_group_kept_bound=round(bound, 4),
                expected_absent_files_kept=round(bound * len(files), 1),
            )
            print(json.dumps(r), flush=True)
            results.append(r)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    print(f"wrote {out / 'results.json'}")
    spark.stop()
    server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
