"""What planning costs: the figures behind "What bounds the point miss" and
"Where the time went" in docs/benchmarks.md, measured in one Spark application
on the datasets bench/e2e.py wrote.

    .venv/bin/python bench/planning.py                # needs bench-out/e2e-20m (and e2e-many for the cold run)

Prints, median of --reps:
- Spark's planning phase (QueryPlanningTracker "planning") of a point miss,
  through bloomparquet and through parquet;
- wall time of the same aggregate over a point miss through each reader, and
  over `parquet.where("false")`, which the optimizer turns into an empty
  relation (no scan, no task): Spark's own per-query floor;
- bloomparquet's pruning time (metric bloomPruningTimeMs) for IN 20,000 absent
  keys with a warm cache;
- with 1,000 small files: bloomparquet's pruning time with its cache off
  (every query reads 1,000 footers and filters).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import bloomparquet as bp

sys.path.insert(0, str(Path(__file__).parent))
from e2e import queries


def _median_ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="bench-out/e2e-20m")
    ap.add_argument("--many", default="bench-out/e2e-many")
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()

    keys = np.load(Path(args.data) / "data" / "_KEYS.npy")
    path = str(Path(args.data) / "data")
    spark = bp.session(**{"spark.driver.memory": "4g"})
    spark.conf.set("parquet.filter.bloom.enabled", "true")
    ours, theirs = bp.read_bloom(spark, path), spark.read.parquet(path)
    for df in (ours, theirs):
        df.where("order_id = 1").count()
    rng = np.random.default_rng(3)
    lo, hi = int(keys.min()) // 2, int(keys.max()) // 2

    planning: dict[str, list[float]] = {"bloomparquet": [], "parquet": []}
    wall: dict[str, list[float]] = {"bloomparquet": [], "parquet": [], "parquet where false": []}
    for _ in range(args.reps):
        miss = f"order_id = {int(rng.integers(lo, hi)) * 2 + 1}"
        for name, q in (
            ("bloomparquet", ours.where(miss)),
            ("parquet", theirs.where(miss)),
            ("parquet where false", theirs.where("false")),
        ):
            agg = q.selectExpr("count(*) AS n", "sum(amount) AS s")
            qe = agg._jdf.queryExecution()
            t = time.perf_counter()
            qe.executedPlan()
            agg.collect()
            wall[name].append(time.perf_counter() - t)
            if name in planning:
                phase = qe.tracker().phases().get("planning").get()
                planning[name].append((phase.endTimeMs() - phase.startTimeMs()) / 1000)
    print(f"point miss, {args.reps} different absent keys, medians:")
    for name, xs in planning.items():
        print(f"  planning phase  {name:<22} {_median_ms(xs)}")
    for name, xs in wall.items():
        print(f"  query wall time {name:<22} {_median_ms(xs)}")

    in20k = queries(keys, np.random.default_rng(1))["IN 20000 absent"]
    pruning = []
    for _ in range(max(5, args.reps // 5)):
        q = ours.where(in20k).selectExpr("count(*) AS n")
        q.collect()
        pruning.append(bp.scan_metrics(q)["bloomPruningTimeMs"] / 1000)
    print(f"IN 20,000 absent keys, warm cache: bloomparquet pruning time {_median_ms(pruning)}")

    many = Path(args.many) / "data"
    if many.exists():
        cold = bp.read_bloom(spark, str(many), **{"bloom.cache": False})
        times = []
        for _ in range(5):
            q = cold.where("order_id = 1000000000001").selectExpr("count(*) AS n")
            q.collect()
            times.append(bp.scan_metrics(q)["bloomPruningTimeMs"] / 1000)
        print(f"1,000 files, cache off (1,000 footers + filters read per query): pruning time {_median_ms(times)}")
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
