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

``--ours`` writes the filters through the table's ``bloom.*`` properties (our sizing: adaptive
filters, the smallest of parquet-java's candidates that holds each row group) instead of
parquet-java's NDV settings. ``--block-mb M`` writes row groups of M MiB (several per file: row groups pruned while planning are
never read by the tasks of the files kept). Each way reads the table through a view ``t`` over
``spark.read.format("delta")`` (``bloom.*`` read options do not reach a Delta scan: Delta's
relation keeps none of its reader's options, so there is no third way with another setting).

Queries: point miss, point hit, IN 1,000 present keys, a key-set join (10 keys held in the driver:
pruned while planning), the same join and ``k IN (SELECT ...)`` with the 10 keys in a Parquet table
(Spark computes them while the query runs: pruned when the scan lists its files), a full scan (an aggregate over every row) and a range predicate nothing can prune with a filter.
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


import slow_store  # noqa: E402 (the script's own folder: bench/)
from delta_session import delta_conf  # noqa: E402

SCATTER, MODULUS = 2654435761, 1_000_000_007
FPP = 0.01


def key(i: int) -> int:
    return i * SCATTER % MODULUS * 2


def write(spark: Any, out: Path, rows: int, files: int, block_mb: float | None, ours: bool) -> None:
    if (out / "_delta_log").is_dir():
        return
    ndv = str(rows // files + 1)
    # With row groups smaller than a file, a filter per row group (sized for the file's keys, as users
    # set parquet-java's NDV per table, not per row group).
    block = {"parquet.block.size": str(int(block_mb * 2**20))} if block_mb else {}
    filters = {
        "parquet.bloom.filter.enabled#k": "true",
        "parquet.bloom.filter.expected.ndv#k": ndv,
        "parquet.bloom.filter.enabled#email": "true",
        "parquet.bloom.filter.expected.ndv#email": ndv,
        "parquet.bloom.filter.fpp#k": str(FPP),
        "parquet.bloom.filter.fpp#email": str(FPP),
    }
    settings = block | ({} if ours else filters)
    for k, v in settings.items():
        spark.conf.set(k, v)
    if ours:
        # Our sizing: the table's bloom.* properties, which every writer of the table honours.
        spark.sql(
            f"CREATE TABLE delta.`{out}` (k BIGINT, email STRING, v INT) USING delta "
            f"TBLPROPERTIES ('bloom.columns' = 'k, email', 'bloom.fpp' = '{FPP}')"
        )
    (
        spark.range(rows, numPartitions=files)
        .selectExpr(
            f"id * {SCATTER} % {MODULUS} * 2 AS k",
            "concat('user-', cast(id AS string), '@mail.example') AS email",
            "cast(id % 1000 AS int) AS v",
        )
        .write.format("delta")
        .mode("append")
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
    ap.add_argument("--block-mb", type=float, help="row groups of this many MiB (parquet.block.size): several per file")
    ap.add_argument(
        "--ours", action="store_true", help="filters written by the table's bloom.* properties, not parquet-java's NDV"
    )
    ap.add_argument("--only", help="run only the queries whose names hold one of these comma-separated texts")
    args = ap.parse_args()

    import bloomparquet as bp

    conf = {
        **delta_conf(),
        "spark.driver.memory": os.environ.get("BENCH_DRIVER_MEMORY", "4g"),
    }
    if args.latency_ms:
        conf.update(slow_store.session_conf())
    spark = bp.session(master="local[2]", **conf)
    out = args.out / (
        f"delta-{args.rows}x{args.files}"
        + (f"-rg{args.block_mb:g}mb" if args.block_mb else "")
        + ("-ours" if args.ours else "")
    )
    started = time.perf_counter()
    write(spark, out, args.rows, args.files, args.block_mb, args.ours)
    print(f"table: {out} ({time.perf_counter() - started:.1f} s to make)", flush=True)

    table = str(out)
    if args.latency_ms:
        slow_store.set_latency(spark, args.latency_ms)
        table = f"slow://{out}"
    spark.createDataFrame([(key(i * 997),) for i in range(10)], "k BIGINT").createOrReplaceTempView("few_keys")
    keys_table = out.parent / f"{out.name}-keys"
    spark.createDataFrame([(key(i * 997),) for i in range(10)], "k BIGINT").coalesce(1).write.mode("overwrite").parquet(
        str(keys_table)
    )
    spark.read.parquet(str(keys_table)).createOrReplaceTempView("table_keys")
    present = key(12345)
    hits = ", ".join(str(key(i * 9973)) for i in range(1000))
    # `t` is the table read as each way reads it (a view over spark.read.format("delta")).
    queries: dict[str, tuple[str, int]] = {
        # Odd: never written, and inside every file's min/max (statistics keep every file).
        "point miss": (f"SELECT * FROM t WHERE k = {present + 1}", 1),
        "point hit": (f"SELECT * FROM t WHERE k = {present}", 1),
        "email hit": ("SELECT * FROM t WHERE email = 'user-777@mail.example'", 1),
        "IN 1,000 present": (f"SELECT count(*) FROM t WHERE k IN ({hits})", 1000),
        "key-set join": ("SELECT t.* FROM t JOIN few_keys f ON t.k = f.k", 10),
        "join, keys in a table": ("SELECT t.* FROM t JOIN table_keys f ON t.k = f.k", 10),
        "IN (subquery)": ("SELECT * FROM t WHERE k IN (SELECT k FROM table_keys)", 10),
        "full scan": ("SELECT count(*), sum(v), max(email) FROM t", 0),
        "range (no filter use)": ("SELECT count(*) FROM t WHERE v BETWEEN 10 AND 12", 0),
    }
    # Per way: session confs.
    ways: dict[str, dict[str, str]] = {
        "delta": {"spark.bloomparquet.delta.enabled": "false"},
        "bloomparquet": {"spark.bloomparquet.delta.enabled": "true"},
    }

    def use(way: str) -> None:
        for k, v in ways[way].items():
            spark.conf.set(k, v)
        spark.read.format("delta").load(table).createOrReplaceTempView("t")

    results = []
    for name, (sql, probes) in queries.items():
        if args.only and not any(text in name for text in args.only.split(",")):
            continue
        row: dict[str, Any] = {"query": name, "probed": probes}
        answers = {}

        def run(way: str, sql: str = sql) -> None:
            use(way)
            spark.sql(sql).collect()

        for way in ways:  # warm: the JIT, Delta's snapshot, the footer cache (bloomparquet)
            run(way)
        best = {way: float("inf") for way in ways}
        for r in range(args.rounds):  # rounds alternate the ways and their order: drift hits both alike
            for way in list(ways) if r % 2 == 0 else list(reversed(ways)):
                best[way] = min(best[way], seconds(lambda way=way: run(way)))
        for way in ways:
            row[f"{way}_s"] = best[way]
            use(way)
            df = spark.sql(sql)
            answers[way] = sorted(map(tuple, df.collect()), key=repr)
            m = bp.scan_metrics(df)
            row[f"{way}_tasks"] = m.get("tasks", 0)
            if way == "bloomparquet":
                row["files_delta_kept"] = m.get("bloomFilesTotal", m.get("numFiles", 0))
                row["files_pruned"] = m.get("bloomFilesPruned", 0)
                row["row_groups"] = m.get("bloomRowGroupsTotal", 0)
                row["row_groups_pruned"] = m.get("bloomRowGroupsPrunedByBloom", 0) + m.get(
                    "bloomRowGroupsPrunedByStats", 0
                )
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
        "\n| query | Delta s | bloomparquet s | ratio | tasks (Delta / ours) | "
        "files pruned / kept by Delta | row groups pruned / in files kept by Delta | survival bound 1-(1-p)^n | same rows |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        bound = "-" if r["survival_bound"] is None else f"{r['survival_bound']:.3f}"
        print(
            f"| {r['query']} | {r['delta_s']:.3f} | {r['bloomparquet_s']:.3f} | {r['ratio']:.2f}x | "
            f"{r['delta_tasks']} / {r['bloomparquet_tasks']} | "
            f"{r['files_pruned']} / {r['files_delta_kept']} | {r['row_groups_pruned']} / {r['row_groups']} | "
            f"{bound} | {r['same_rows']} |"
        )
    spark.stop()
    return 0 if all(r["same_rows"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
