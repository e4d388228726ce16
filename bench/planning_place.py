"""Where planning reads: the driver, a planning job on the executors, and ``auto``
(``spark.bloomparquet.planning.distributed``), on a master whose executors are JVMs of their own.

Tables of --files small files (pyarrow, one row group, a bloom filter on ``k``), read cold
(``bloom.cache=false``) through the test jar's ``slow://`` store: --latency-ms per open and per
GET, --mbps per stream and --jvm-mbps per JVM, in the driver and in each executor (their Hadoop
conf mounts and sets it). A point miss, so every file is pruned and no task runs: the query's
wall time is its planning. Each place is timed --reps times, best kept; ``auto`` also reports where
it planned (``bloomFilesPlannedOnExecutors``).

    .venv/bin/python bench/planning_place.py                 # ~5 min on 2 cores
    .venv/bin/python bench/planning_place.py --files 100 400 --reps 1

On this 2-core machine the executors are 2 JVMs of one core each (``local-cluster[2,1,1536]``):
waiting on requests, not computing, is what they share out, so a job reads twice the driver's
files at once. Writes results.md under --out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bloomparquet as bp
import slow_store  # the script's own folder: bench/

PLACES = ["driver", "executors", "auto"]
ROWS = 1000


def write_files(root: Path, n: int) -> Path:
    """`n` files of ROWS distinct even keys each (odd keys miss), a 1 % filter on k."""
    out = root / f"t{n}"
    out.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        k = (np.arange(ROWS, dtype=np.int64) + i * ROWS) * 2
        pq.write_table(
            pa.table({"k": k, "v": k.astype(str)}),
            out / f"part-{i:05d}.parquet",
            bloom_filter_options={"k": {"ndv": ROWS, "fpp": 0.01}},
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, nargs="+", default=[100, 400, 1600])
    ap.add_argument("--latency-ms", type=int, default=20)
    ap.add_argument("--mbps", type=float, default=100.0)
    ap.add_argument("--jvm-mbps", type=float, default=1000.0)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--master", default="local-cluster[2,1,1536]")
    ap.add_argument("--out", default="bench-out/planning-place")
    args = ap.parse_args()

    conf = slow_store.session_conf()
    conf["spark.executor.extraClassPath"] = str(slow_store.TESTS_JAR)
    for key, value in {
        "latencyMs": args.latency_ms,
        "megabytesPerSecond": args.mbps,
        "jvmMegabytesPerSecond": args.jvm_mbps,
    }.items():
        conf[f"spark.hadoop.fs.slow.{key}"] = str(value)
    spark = bp.session(master=args.master, **conf)
    spark.sparkContext.setLogLevel("ERROR")
    # The driver's store is made when first used; make it now with the conf's settings.
    spark._jvm.org.apache.hadoop.fs.Path("slow:///").getFileSystem(spark._jsc.hadoopConfiguration())
    cost = {"bloom.cache": "false", "bloom.readCost.latencyMicros": str(args.latency_ms * 1000)}
    miss = f"k = {2 * ROWS * max(args.files) + 1}"
    lines = [
        "| files | driver s | executors s | auto s | auto planned on | auto vs the better |",
        "|---:|---:|---:|---:|---|---:|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        # A few jobs first: executors start, classes load, the store is made in each.
        warm = write_files(Path(tmp), 8)
        spark.conf.set("spark.bloomparquet.planning.distributed", "executors")
        for _ in range(3):
            spark.read.format("bloomparquet").options(**cost).load(f"slow://{warm}").where(miss).collect()
        for n in args.files:
            data = write_files(Path(tmp), n)
            best: dict[str, float] = {}
            where_auto = ""
            for place in PLACES:
                spark.conf.set("spark.bloomparquet.planning.distributed", place)
                times = []
                for _ in range(args.reps):
                    df = spark.read.format("bloomparquet").options(**cost).load(f"slow://{data}").where(miss)
                    started = time.perf_counter()
                    assert df.collect() == []
                    times.append(time.perf_counter() - started)
                    if place == "auto":
                        on = bp.scan_metrics(df).get("bloomFilesPlannedOnExecutors", 0)
                        where_auto = "executors" if on else "driver"
                best[place] = min(times)
                print(f"{n} files, {place}: {best[place]:.3f} s", flush=True)
            better = min(best["driver"], best["executors"])
            lines.append(
                f"| {n:,} | {best['driver']:.3f} | {best['executors']:.3f} | {best['auto']:.3f} | {where_auto} "
                f"| {best['auto'] / better:.2f}x |"
            )
    spark.stop()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
