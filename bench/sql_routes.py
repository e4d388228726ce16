"""Catalog-table point lookups through SQL: ``USING bloomparquet`` (the session extension
plans it through the V2 scan) vs the same files ``USING parquet`` (Spark's V1 scan, its
in-task bloom filtering on), and ``USING bloomparquet`` with the extension's route switched
off (Spark's V1 route with in-task pruning).

Writes ``--rows`` rows (a shuffled high-cardinality key with filters at ``--fpp``, many row
groups) in ``--files`` files, then times a point miss and a point hit per route: wall time
(median of ``--repeats`` after one warm-up) and the tasks the scan planned.

    .venv/bin/python bench/sql_routes.py [--rows 4000000] [--files 32] [--fpp 0.001] [--out /tmp/sql-routes-bench]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

import bloomparquet

ROUTES = {
    "bloomparquet (extension, V2)": ("sr_bloom", {}),
    "bloomparquet (V1 route)": ("sr_bloom", {"spark.bloomparquet.sql.planTimePruning": "false"}),
    "parquet": ("sr_parquet", {}),
}


def _write(spark, out: Path, rows: int, files: int, fpp: float) -> int:
    df = spark.range(0, rows, 1, files).selectExpr(
        "id", "(id * 2654435761) % 1000000000039 AS key", "sha2(cast(id AS string), 256) AS payload"
    )
    (
        df.write.format("bloomparquet")
        .mode("overwrite")
        .option("bloom.columns", "key")
        .option("bloom.fpp", fpp)
        .option("parquet.block.size", 1024 * 1024)
        .save(str(out))
    )
    return spark.sql(f"SELECT * FROM bloomparquet_filters('{out}')").where("column = 'key'").count()


def _run(spark, table: str, conf: dict[str, str], key: int, repeats: int) -> tuple[float, int, int]:
    for k, v in conf.items():
        spark.conf.set(k, v)
    try:
        times = []
        for i in range(repeats + 1):
            df = spark.sql(f"SELECT * FROM {table} WHERE key = {key}")
            t0 = time.perf_counter()
            n = len(df.collect())
            if i:
                times.append(time.perf_counter() - t0)
        return statistics.median(times), bloomparquet.scan_metrics(df)["tasks"], n
    finally:
        for k in conf:
            spark.conf.unset(k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=4_000_000)
    ap.add_argument("--files", type=int, default=32)
    ap.add_argument("--fpp", type=float, default=0.001)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default="/tmp/sql-routes-bench")
    args = ap.parse_args()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    spark = bloomparquet.session(**{"spark.sql.warehouse.dir": str(out / "warehouse")})
    row_groups = _write(spark, out / "data", args.rows, args.files, args.fpp)
    spark.sql(f"CREATE TABLE sr_bloom USING bloomparquet LOCATION '{out / 'data'}'")
    spark.sql(f"CREATE TABLE sr_parquet USING parquet LOCATION '{out / 'data'}'")
    hit = (12345 * 2654435761) % 1000000000039
    miss = hit + 1  # keys are distinct residues; hit + 1 is stored only if another id maps there (~rows/1e12)
    print(
        f"{args.rows:,} rows, {args.files} files, {row_groups} row groups, key filters at fpp {args.fpp:g}; "
        f"a row group without the value survives its filter with p = {args.fpp:g}, so a miss keeps "
        f"~{row_groups * args.fpp:.1f} of {row_groups} row groups (expected), a hit 1 + that"
    )
    print(f"{'route':32} {'query':6} {'tasks':>6} {'rows':>5} {'median s':>9} {'vs parquet':>10}")
    for label, key in (("miss", miss), ("hit", hit)):
        results = {route: _run(spark, table, conf, key, args.repeats) for route, (table, conf) in ROUTES.items()}
        base = results["parquet"][0]
        for route, (secs, tasks, n) in results.items():
            print(f"{route:32} {label:6} {tasks:6d} {n:5d} {secs:9.3f} {secs / base:9.2f}x")
    spark.stop()


if __name__ == "__main__":
    main()
