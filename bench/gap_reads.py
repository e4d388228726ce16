"""Scattered survivors: reading small gaps of pruned row groups vs opening the file around them.

When a filter keeps many row groups scattered through a file (an IN list whose n*p is near 1),
each run of survivors could be a split of its own, and each split opens the file and reads its
footer again. bloomparquet reads a gap of pruned row groups between two runs when the gap
holds at most ``spark.sql.files.openCostInBytes`` (Spark's price of an open, 4 MB by default),
so such a file is read in one split. This runs the same IN lists with that setting as it is
("gap reads") and at 0 (every run its own split), against Spark's
``parquet``, on the datasets of ``bench/in_lists.py`` (written there if missing).

    .venv/bin/python bench/gap_reads.py [--fpp 0.0001] [--ns 1000,10000] [--reps 3]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import bloomparquet as bp
from in_lists import absent_values, in_clause, mean_fill_fpp, write_dataset

OPEN_COST = "spark.sql.files.openCostInBytes"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpp", type=float, default=0.0001)
    ap.add_argument("--ns", default="1000,10000")
    ap.add_argument("--groups", type=int, default=256)
    ap.add_argument("--group-rows", type=int, default=8000)
    ap.add_argument("--files", type=int, default=16)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default="bench-out/in_lists")
    args = ap.parse_args()

    spark = bp.session(**{"spark.driver.memory": "3g"})
    path = Path(args.out) / f"data-fpp{args.fpp}"
    rows = args.groups * args.group_rows
    write_dataset(spark, path, rows, args.files, args.group_rows, args.fpp)
    p, real_p = str(path), mean_fill_fpp(path)
    default_cost = spark.conf.get(OPEN_COST)
    variants = {
        "gap reads": ("bloomparquet", default_cost),
        "no gap reads": ("bloomparquet", "0"),
        "parquet": ("parquet", default_cost),
    }
    print(
        f"{rows:,} rows, {args.files} files, {args.groups} row groups; filters' FPP from their fill {real_p:.3g}; "
        f"{OPEN_COST} = {default_cost}; best of {args.reps}"
    )
    print(f"{'IN n':>7} {'bound':>6} {'variant':<13} {'kept':>5} {'gap rg':>6} {'tasks':>5} {'best s':>7} {'vs pq':>6}")
    for n in map(int, args.ns.split(",")):
        where = in_clause(absent_values(n, seed=n))
        best, metrics = {}, {}
        for name, (fmt, cost) in variants.items():
            spark.conf.set(OPEN_COST, cost)
            ts = []
            for _ in range(args.reps + 1):  # the first run warms up
                df = (
                    bp.read_bloom(spark, p, **{"bloom.cache": False})
                    if fmt == "bloomparquet"
                    else spark.read.parquet(p)
                )
                q = df.where(where).selectExpr("count(*) AS n", "sum(amount) AS s")
                t = time.perf_counter()
                assert q.collect()[0]["n"] == 0
                ts.append(time.perf_counter() - t)
            best[name], metrics[name] = min(ts[1:]), bp.scan_metrics(q)
        spark.conf.set(OPEN_COST, default_cost)
        bound = args.groups * (1 - (1 - real_p) ** n)
        for name in variants:
            m = metrics[name]
            kept = (
                m["bloomRowGroupsTotal"] - m["bloomRowGroupsPrunedByBloom"] - m["bloomRowGroupsPrunedByStats"]
                if "bloomRowGroupsTotal" in m
                else args.groups
            )
            print(
                f"{n:>7,} {bound:>6.1f} {name:<13} {kept:>5} {m.get('bloomRowGroupsReadInGaps', 0):>6} "
                f"{m.get('tasks', 0):>5} {best[name]:>7.3f} {best[name] / best['parquet']:>5.2f}x",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
