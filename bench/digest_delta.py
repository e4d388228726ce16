"""A Delta Lake table's bloom digest at planning: a cold point lookup over a --files-file Delta table
on the test jar's simulated object store, Delta alone, bloomparquet judging every file, and
bloomparquet with the digest, in one session. The Delta rows of "Bloom digest" in docs/benchmarks.md.

    .venvs/spark-4.2/bin/python bench/digest_delta.py                 # 10,000 files
    .venvs/spark-4.2/bin/python bench/digest_delta.py --files 1000    # a quick look

Needs the test jar (bin/sbt jvm/Test/package). The table: Delta's own writer (Spark's Parquet
writer, parquet-java's filters on ``k`` sized for a file's 200 values at 1 %), written locally once,
one row group a file; the digest is built over it (``bp.build_digest(spark, path, "k")``) and the
queries read it through ``slow://`` (20 ms a GET and an open, 100 MB/s a stream, listings free).
Delta reads its log through the same store; ``delta.enabled=false`` is Delta alone (its statistics
keep every file: the keys are scattered). Cold: ``bloom.cache=false``.

Reported per query and way: wall time, planning (the pruning time bloomparquet's metrics give),
GETs of data files and of the whole query (``slow://``'s counts, the log's included), footers
read while planning, the digest's requests, files left for tasks; rows checked against Delta alone
(above --delta-alone-files, against Spark's ``parquet`` over the table's files, pushdown off).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


import slow_store  # noqa: E402 (the script's own folder: bench/)
from delta_session import delta_conf  # noqa: E402

SCATTER, MODULUS = 2654435761, 1_000_000_007
FPP = 0.01
ROWS_PER_FILE = 200


def key(i: int) -> int:
    return i * SCATTER % MODULUS * 2


def write(spark: Any, out: Path, files: int) -> None:
    if (out / "_delta_log").is_dir():
        return
    filters = {
        "parquet.bloom.filter.enabled#k": "true",
        "parquet.bloom.filter.expected.ndv#k": str(ROWS_PER_FILE),
        "parquet.bloom.filter.fpp#k": str(FPP),
    }
    for k, v in filters.items():
        spark.conf.set(k, v)
    (
        spark.range(files * ROWS_PER_FILE, numPartitions=files)
        .selectExpr(f"id * {SCATTER} % {MODULUS} * 2 AS k", "concat('p', id) AS payload")
        .write.format("delta")
        .save(str(out))
    )
    for k in filters:
        spark.conf.unset(k)


def data_gets(store: Any, table: Path) -> tuple[int, int]:
    """GETs of the table's data files and of everything (its log and digest too), from ``slow://``'s counts."""
    total = int(store.totals()[2])
    other = [f for d in ("_delta_log", "_bloomparquet") for f in (table / d).rglob("*") if f.is_file()]
    return total - sum(int(store.of(str(f))[1]) for f in other), total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument(
        "--delta-alone-files",
        type=int,
        default=1_000,
        help="largest table also read by Delta alone (its tasks read every file: minutes at 10,000)",
    )
    ap.add_argument("--latency-ms", type=int, default=20)
    ap.add_argument("--mbps", type=float, default=100.0)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-out")
    a = ap.parse_args()

    import bloomparquet as bp

    conf = {
        **delta_conf(),
        "spark.driver.memory": "6g",
        "spark.ui.enabled": "false",
        **slow_store.session_conf(),
    }
    spark = bp.session(master="local[2]", **conf)
    spark.sparkContext.setLogLevel("ERROR")
    out = a.out / f"digest-delta-{a.files}"
    t = time.perf_counter()
    write(spark, out, a.files)
    print(f"table: {out} ({time.perf_counter() - t:.0f} s to make)", flush=True)
    t = time.perf_counter()
    built = bp.build_digest(spark, str(out), "k")
    build_s = time.perf_counter() - t
    print(f"digest: {built} in {build_s:.0f} s", flush=True)
    store = spark._jvm.io.bloomparquet.testing.SlowFileSystem
    table = f"slow://{out}"
    # Uncounted, before any latency: Delta's first snapshot of the table and the JVM's first planning.
    spark.conf.set("spark.bloomparquet.delta.enabled", "true")
    spark.read.format("delta").load(table).where("k = -1").collect()
    slow_store.set_latency(spark, a.latency_ms, a.mbps)
    ways = {
        "delta": {"spark.bloomparquet.delta.enabled": "false"},
        "per file": {"spark.bloomparquet.delta.enabled": "true", "spark.bloomparquet.read.digest": "false"},
        "digest": {"spark.bloomparquet.delta.enabled": "true", "spark.bloomparquet.read.digest": "true"},
    }
    queries = {
        "point miss": (f"k = {key(17) + 1}", 1),
        "IN 10 (misses)": ("k IN ({})".format(", ".join(str(key(i) + 1) for i in range(10))), 10),
        "point hit": (f"k = {key(12_345)}", 1),
    }
    results: list[dict[str, Any]] = [
        {"files": a.files, "build": {**built, "seconds": round(build_s, 1), "files_per_s": round(a.files / build_s, 1)}}
    ]
    for query, (where, n) in queries.items():
        expected = None
        for way, settings in ways.items():
            if way == "delta" and a.files > a.delta_alone_files:
                continue
            for k, v in {**settings, "spark.bloomparquet.read.cache": "false"}.items():
                spark.conf.set(k, v)
            q = spark.read.format("delta").load(table).where(where)
            store.reset()
            t = time.perf_counter()
            got = sorted(q.collect())
            wall = time.perf_counter() - t
            data, total = data_gets(store, out)
            if expected is None and way == "delta":
                expected = got
            elif expected is None:
                # A table too large for Delta alone: its files (written once, none removed) by Spark's parquet, pushdown off.
                spark.conf.set("spark.sql.parquet.filterPushdown", "false")
                expected = sorted(spark.read.parquet(str(out)).where(where).collect())
                spark.conf.unset("spark.sql.parquet.filterPushdown")
            if got != expected:
                raise SystemExit(f"{query}, {way}: {len(got)} rows, the reference {len(expected)}")
            m = bp.scan_metrics(q)
            bound = 1 - (1 - FPP) ** n
            r = {
                "files": a.files,
                "query": query,
                "way": way,
                "query_s": round(wall, 3),
                "planning_s": m.get("bloomPruningTimeMs", 0) / 1000,
                "data_file_gets": data,
                "gets": total,
                "footers_read": m.get("bloomFootersRead", 0),
                "digest_requests": m.get("bloomDigestRequests", 0),
                "digest_entries_pruned": m.get("bloomDigestEntriesPruned", 0),
                "files_left": m.get("bloomFilesTotal", a.files) - m.get("bloomFilesPruned", 0),
                "rows": len(got),
                "fpp": FPP,
                "row_group_kept_bound": round(bound, 4),
                "expected_absent_files_kept": round(bound * a.files, 1),
            }
            print(json.dumps(r), flush=True)
            results.append(r)
    dest = a.out / "digest_delta"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "results.json").write_text(json.dumps(results, indent=1))
    print(f"wrote {dest / 'results.json'}")
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
