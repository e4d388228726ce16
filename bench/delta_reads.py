"""Delta Lake reads with and without bloomparquet (``spark.bloomparquet.delta.enabled``), one session.

    .venvs/spark-4.2/bin/python bench/delta_reads.py                 # 10 M rows in 64 files
    .venvs/spark-4.2/bin/python bench/delta_reads.py --rows 20000000 --files 128

Writes (once, into bench-out/delta-<rows>x<files>) a Delta table with Delta's own writer (Spark's
Parquet writer) and parquet-java's bloom filters on ``k`` (high-cardinality, even keys scattered so
every file's min/max spans the whole range: Delta's statistics skipping prunes nothing) and on
``email``, set through parquet-java's Hadoop settings. Then, per query and way, best of
``--rounds`` wall times:

- ``delta``: Delta alone (the conf off), with Spark's Parquet pushdown and parquet-java's in-task
  bloom filtering on, their defaults;
- ``bloomparquet``: the conf on (files pruned by their filters while planning).

``--latency-ms N`` reads the table through the test jar's latency-injecting file system
(``slow://``: N ms per open and per positioned read, as an object store costs a request), the
way tasks and planning pay requests on a store; the table is written locally first.

Queries: point miss, point hit, IN 1,000 present keys, a key-set join (10 keys in a small table),
a full scan (an aggregate over every row) and a range predicate nothing can prune with a filter.
Reported: wall time, the ratio, tasks, files Delta kept and bloomparquet pruned, and the bound a
file without any of the n probed values survives filters of false-positive rate p with:
1 - (1 - p)^n. Results go to bench-out/delta-*/results.csv (for bench/plot_e2e.py) and stdout.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.delta.conftest import DELTA_EXTENSION, delta_package  # noqa: E402

SCATTER, MODULUS = 2654435761, 1_000_000_007
FPP = 0.01


def key(i: int) -> int:
    return i * SCATTER % MODULUS * 2


def write(spark: Any, out: Path, rows: int, files: int) -> None:
    if (out / "_delta_log").is_dir():
        return
    ndv = str(rows // files + 1)
    settings = {
        "parquet.bloom.filter.enabled#k": "true",
        "parquet.bloom.filter.expected.ndv#k": ndv,
        "parquet.bloom.filter.enabled#email": "true",
        "parquet.bloom.filter.expected.ndv#email": ndv,
        "parquet.bloom.filter.fpp#k": str(FPP),
        "parquet.bloom.filter.fpp#email": str(FPP),
    }
    for k, v in settings.items():
        spark.conf.set(k, v)
    (
        spark.range(rows, numPartitions=files)
        .selectExpr(
            f"id * {SCATTER} % {MODULUS} * 2 AS k",
            "concat('user-', cast(id AS string), '@mail.example') AS email",
            "cast(id % 1000 AS int) AS v",
        )
        .write.format("delta")
        .save(str(out))
    )
    for k in settings:
        spark.conf.unset(k)


def seconds(run: Callable[[], Any]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--files", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-out")
    ap.add_argument("--latency-ms", type=int, default=0, help="read through slow:// at this latency per request")
    args = ap.parse_args()

    import pyspark

    import bloomparquet as bp

    package = delta_package(pyspark.__version__)
    if package is None:
        print(f"Delta Lake has no release for Spark {pyspark.__version__}: run with .venvs/spark-4.2", file=sys.stderr)
        return 2
    conf = {
        "spark.jars.packages": package,
        "spark.sql.extensions": DELTA_EXTENSION,
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.driver.memory": os.environ.get("BENCH_DRIVER_MEMORY", "4g"),
    }
    if args.latency_ms:
        tests_jar = str(ROOT / "jvm" / "target" / "bloomparquet-tests.jar")
        conf.update(
            {
                "spark.jars": tests_jar,
                "spark.driver.extraClassPath": tests_jar,
                "spark.hadoop.fs.slow.impl": "io.bloomparquet.testing.SlowFileSystem",
            }
        )
    spark = bp.session(master="local[2]", **conf)
    out = args.out / f"delta-{args.rows}x{args.files}"
    started = time.perf_counter()
    write(spark, out, args.rows, args.files)
    print(f"table: {out} ({time.perf_counter() - started:.1f} s to make)", flush=True)

    table = str(out)
    if args.latency_ms:
        spark._jvm.io.bloomparquet.testing.SlowFileSystem.setLatencyMs(args.latency_ms, args.latency_ms)
        table = f"slow://{out}"
    spark.createDataFrame([(key(i * 997),) for i in range(10)], "k BIGINT").createOrReplaceTempView("few_keys")
    present = key(12345)
    hits = ", ".join(str(key(i * 9973)) for i in range(1000))
    queries: dict[str, tuple[str, int]] = {
        # Odd: never written, and inside every file's min/max (statistics keep every file).
        "point miss": (f"SELECT * FROM delta.`{table}` WHERE k = {present + 1}", 1),
        "point hit": (f"SELECT * FROM delta.`{table}` WHERE k = {present}", 1),
        "email hit": (f"SELECT * FROM delta.`{table}` WHERE email = 'user-777@mail.example'", 1),
        "IN 1,000 present": (f"SELECT count(*) FROM delta.`{table}` WHERE k IN ({hits})", 1000),
        "key-set join": (f"SELECT t.* FROM delta.`{table}` t JOIN few_keys f ON t.k = f.k", 10),
        "full scan": (f"SELECT count(*), sum(v), max(email) FROM delta.`{table}`", 0),
        "range (no filter use)": (f"SELECT count(*) FROM delta.`{table}` WHERE v BETWEEN 10 AND 12", 0),
    }
    ways = {
        "delta": {"spark.bloomparquet.delta.enabled": "false"},
        "bloomparquet": {"spark.bloomparquet.delta.enabled": "true"},
    }
    results = []
    for name, (sql, probes) in queries.items():
        row: dict[str, Any] = {"query": name, "probed": probes}
        answers = {}

        def run(way: str, sql: str = sql) -> None:
            for k, v in ways[way].items():
                spark.conf.set(k, v)
            spark.sql(sql).collect()

        for way in ways:  # warm: the JIT, Delta's snapshot, the footer cache (bloomparquet)
            run(way)
        best = {way: float("inf") for way in ways}
        for r in range(args.rounds):  # rounds alternate the ways and their order: drift hits both alike
            for way in list(ways) if r % 2 == 0 else list(reversed(ways)):
                best[way] = min(best[way], seconds(lambda way=way: run(way)))
        for way in ways:
            row[f"{way}_s"] = best[way]
            for k, v in ways[way].items():
                spark.conf.set(k, v)
            df = spark.sql(sql)
            answers[way] = sorted(map(tuple, df.collect()), key=repr)
            m = bp.scan_metrics(df)
            row[f"{way}_tasks"] = m.get("tasks", 0)
            if way == "bloomparquet":
                row["files_delta_kept"] = m.get("bloomFilesTotal", m.get("numFiles", 0))
                row["files_pruned"] = m.get("bloomFilesPruned", 0)
                row["unprobed_row_groups"] = m.get("bloomRowGroupsUnprobed", 0)
                row["pruning_ms"] = m.get("bloomPruningTimeMs", 0)
        row["same_rows"] = answers["delta"] == answers["bloomparquet"]
        row["ratio"] = row["bloomparquet_s"] / row["delta_s"]
        row["survival_bound"] = 1 - (1 - FPP) ** probes if probes else None
        results.append(row)
        print(json.dumps(row), flush=True)

    suffix = f"-{args.latency_ms}ms" if args.latency_ms else ""
    with open(out / f"results{suffix}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["reader", "query", "best_s"])
        for r in results:
            for way in ways:
                w.writerow([way, r["query"], f"{r[f'{way}_s']:.4f}"])
    print(
        "\n| query | Delta s | bloomparquet s | ratio | tasks (Delta / ours) | files pruned / kept by Delta | "
        "survival bound 1-(1-p)^n | same rows |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        bound = "-" if r["survival_bound"] is None else f"{r['survival_bound']:.3f}"
        print(
            f"| {r['query']} | {r['delta_s']:.3f} | {r['bloomparquet_s']:.3f} | {r['ratio']:.2f}x | "
            f"{r['delta_tasks']} / {r['bloomparquet_tasks']} | {r['files_pruned']} / {r['files_delta_kept']} | "
            f"{bound} | {r['same_rows']} |"
        )
    spark.stop()
    return 0 if all(r["same_rows"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
