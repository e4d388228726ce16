"""Key sets held in Python (`spark.createDataFrame` from a list): the driver-side size measure
(`DriverHeldRdd`, no job) and a semi-join lookup of n list keys with the key-set filter
(default `spark.bloomparquet.keySet.maxBytes`) against without it (maxBytes=0: what such
keys got before they were measured).

    .venv/bin/python bench/keyset_local.py            # ~3 min on 2 cores
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import bloomparquet as bp


def _measure_ms(spark, n: int) -> tuple[int, float]:
    df = spark.createDataFrame([(k * 1000003,) for k in range(n)], "l bigint")
    leaf = df._jdf.queryExecution().optimizedPlan()
    while leaf.children().size() > 0:
        leaf = leaf.children().head()
    held = spark._jvm.org.apache.spark.bloomparquet.DriverHeldRdd
    times = []
    for _ in range(5):
        t = time.perf_counter()
        size = held.bytes(leaf.rdd(), 2**62).get()
        times.append(time.perf_counter() - t)
    return size, min(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=4_000_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--fact", default="bench-out/keyset-local/fact")
    args = ap.parse_args()
    spark = bp.session(**{"spark.sql.session.timeZone": "UTC"})
    for n in (10_000, 1_000_000):
        size, ms = _measure_ms(spark, n)
        print(f"size measure: {n:,} list keys = {size:,} bytes in {ms:.2f} ms (best of 5, incl. one py4j call)")
    fact = Path(args.fact)
    if not fact.exists():
        (
            spark.range(args.rows)
            .selectExpr(f"(id * 7919 % {args.rows}) * 2 AS l", "id AS v")
            .coalesce(1)
            .write.format("bloomparquet")
            .option("bloom.columns", "l")
            .option("parquet.block.size", 1 << 20)
            .save(str(fact))
        )
    table = spark.read.format("bloomparquet").load(str(fact))
    for n in (10, 100):
        keys = spark.createDataFrame([(2 * k + 1,) for k in range(0, 997 * n, 997)], "l bigint")  # absent (odd)
        for label, max_bytes in (("filter", "10485760"), ("no filter", "0")):
            spark.conf.set("spark.bloomparquet.keySet.maxBytes", max_bytes)
            times, metrics = [], {}
            for _ in range(args.reps):
                q = table.join(keys, "l", "left_semi")
                t = time.perf_counter()
                q.collect()  # on q itself: scan_metrics reads its execution
                times.append(time.perf_counter() - t)
                metrics = bp.scan_metrics(q)
            print(
                f"{n} keys, {label}: median {statistics.median(times):.2f} s of {args.reps}; "
                f"row groups {metrics.get('bloomRowGroupsTotal', 0)}, pruned "
                f"{metrics.get('bloomRowGroupsPrunedByBloom', 0) + metrics.get('bloomRowGroupsPrunedByStats', 0)}; "
                f"rows read {metrics.get('numOutputRows', 0):,}"
            )
    spark.conf.unset("spark.bloomparquet.keySet.maxBytes")


if __name__ == "__main__":
    main()
