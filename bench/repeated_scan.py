"""One small query run many times in one session, alternating Spark's ``parquet`` and the same
views opted in (``spark.bloomparquet.parquet.enabled``): the cost a scan adds per run, which
a whole-query-set run cannot resolve. Runs over the TPC-DS data ``bench/tpcds.py`` generated;
prints the median wall time and the median planning time of each route, the first
``--warmup`` runs left out.

    .venv/bin/python bench/repeated_scan.py [--runs 60] [--query "SELECT ..."]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import bloomparquet
from tpcds import views


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--query", default="SELECT count(*) FROM date_dim WHERE d_year > 2000")
    ap.add_argument("--runs", type=int, default=60, help="runs per route, alternating which goes first")
    ap.add_argument("--warmup", type=int, default=5, help="first runs per route left out of the medians")
    ap.add_argument("--data", type=Path, default=Path("bench-out/tpcds/sf1"), help="bench/tpcds.py's --out/sf<scale>")
    args = ap.parse_args()
    spark = bloomparquet.session(
        **{"spark.driver.memory": "8g", "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false"}
    )
    spark.sparkContext.setLogLevel("ERROR")
    views(spark, args.data / "parquet", args.data / "bloom", "parquet", True)
    total: dict[str, list[float]] = {"parquet": [], "opted-in": []}
    planning: dict[str, list[float]] = {"parquet": [], "opted-in": []}
    for i in range(args.runs):
        for route in ("parquet", "opted-in") if i % 2 == 0 else ("opted-in", "parquet"):
            spark.conf.set("spark.bloomparquet.parquet.enabled", str(route == "opted-in").lower())
            start = time.perf_counter()
            df = spark.sql(args.query)
            df._jdf.queryExecution().executedPlan()
            planned = time.perf_counter() - start
            df.collect()
            total[route].append(time.perf_counter() - start)
            planning[route].append(planned)
    for route in total:
        print(
            f"{route:9s} median {statistics.median(total[route][args.warmup :]) * 1000:7.1f} ms"
            f"  planning {statistics.median(planning[route][args.warmup :]) * 1000:6.1f} ms"
        )


if __name__ == "__main__":
    main()
