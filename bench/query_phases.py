"""Where a lookup's wall time goes, bloomparquet against Spark's ``parquet``, in one session: the
DataFrame's creation (Spark's listing and its schema-inference job), physical planning, and the run
(bloomparquet's pruning, then the job over the files left). Both ways run ``--runs`` times
uncounted first (the JIT's warm-up), then ``--runs`` times more: medians of the second half of
those, with the bloomparquet cache off.

    .venv/bin/python bench/query_phases.py bench-out/filter-reads-400-ours --key 1000000001

The folder is any Parquet table with a bloom filter on ``k`` (``bench/filter_reads.py`` writes
them); ``--key`` is the value looked up (``k = KEY``), or ``--where`` any predicate, such as the
IN 10 of ``bench/filter_reads.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import bloomparquet as bp


def phases(spark: Any, load: Any, where: str, runs: int) -> tuple[dict[str, float], dict[str, int]]:
    """Median milliseconds of each phase over the second half of `runs`, and the last run's metrics."""
    took: dict[str, list[float]] = {"load": [], "plan": [], "run": []}
    df = None
    for _ in range(runs):
        t0 = time.perf_counter()
        df = load().where(where).select("k")
        t1 = time.perf_counter()
        df._jdf.queryExecution().executedPlan()
        t2 = time.perf_counter()
        df.collect()
        t3 = time.perf_counter()
        for name, seconds in zip(took, (t1 - t0, t2 - t1, t3 - t2)):
            took[name].append(seconds)
    return {k: 1000 * statistics.median(v[runs // 2 :]) for k, v in took.items()}, bp.scan_metrics(df)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table")
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--key", type=int)
    what.add_argument("--where", help="the predicate, instead of k = KEY")
    ap.add_argument("--runs", type=int, default=60)
    args = ap.parse_args()
    spark = bp.session(**{"spark.driver.memory": "6g"})
    ways = {
        "bloomparquet": lambda: spark.read.format("bloomparquet").option("bloom.cache", "false").load(args.table),
        "parquet": lambda: spark.read.parquet(args.table),
    }
    where = args.where or f"k = {args.key}"
    for load in ways.values():
        phases(spark, load, where, args.runs)
    print(f"{'way':<14}{'load ms':>9}{'plan ms':>9}{'run ms':>8}{'total ms':>10}  pruning ms")
    for name, load in ways.items():
        ms, m = phases(spark, load, where, args.runs)
        pruning = m.get("bloomPruningTimeMs", "")
        print(f"{name:<14}{ms['load']:>9.1f}{ms['plan']:>9.1f}{ms['run']:>8.1f}{sum(ms.values()):>10.1f}  {pruning}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
