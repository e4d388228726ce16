"""Every TPC-DS query three ways in one session: Spark's ``parquet`` scan, the same files opted in
(``spark.bloomparquet.parquet.enabled``: nothing can prune, the files have no bloom filters), and
the ``bloomparquet`` format over copies of the fact tables written with filters on their keys.

Generates the data with tpcgen-cli (the bench extra installs it) as Parquet, writes the filtered
fact tables with ``bloomparquet.write_bloom``, then per query: wall time (plan and collect, the best
of ``--rounds``) each way, the ratio to Spark's, physical plan nodes each way, and whether the rows are identical; the
total ratio; the driver's used heap across the session. A query over ``--timeout`` seconds is
cancelled and marked. With ``--oracle`` each query also runs once, untimed, on Spark's ``parquet``
with its filter pushdown off, and every route's rows must equal those. The route ``parquet-again``
is Spark's ``parquet`` a second time: its ratio to ``parquet`` is the run's noise floor, what one
reader measures against itself on this machine.

    .venv/bin/python bench/tpcds.py [--scale 1] [--out bench-out/tpcds] [--queries q1,q14a]
"""

from __future__ import annotations

import argparse
import decimal
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import bloomparquet

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.tpcds_queries import queries
from tests.tpcds_schema import FACT_KEYS, TABLES

ROUTES = ("parquet", "opted-in", "bloomparquet")
AGAIN = "-again"  # a route named <route>-again runs <route> once more: the noise floor
OVER = 1.2  # a query this much slower than Spark's is listed


def generate(tpcgen: str, scale: float, out: Path) -> Path:
    gen = out / f"sf{scale:g}" / "parquet"
    if not (gen / "store_sales.parquet").exists():
        gen.mkdir(parents=True, exist_ok=True)
        subprocess.run([tpcgen, "tpcds", "parquet", "-s", f"{scale:g}", "--no-progress", "-o", str(gen)], check=True)
    return gen


def write_filtered(spark, gen: Path, out: Path) -> Path:
    """The fact tables again, with bloom filters on FACT_KEYS (written once)."""
    bloom = gen.parent / "bloom"
    for table, keys in FACT_KEYS.items():
        target = bloom / table
        if not (target / "_SUCCESS").exists():
            shutil.rmtree(target, ignore_errors=True)
            bloomparquet.write_bloom(spark.read.parquet(str(gen / f"{table}.parquet")), str(target), keys)
    return bloom


def views(spark, gen: Path, bloom: Path, route: str, filtered_facts: bool) -> None:
    for table in TABLES:
        path = gen / f"{table}.parquet"
        if table in FACT_KEYS and (route == "bloomparquet" or filtered_facts):
            path = bloom / table
        if route == "bloomparquet":
            df = spark.read.format("bloomparquet").load(str(path))
        else:
            df = spark.read.parquet(str(path))
        if table == "customer":  # Spark's copy of the queries (q30) names it so
            df = df.withColumnRenamed("c_last_review_date_sk", "c_last_review_date")
        df.createOrReplaceTempView(table)


_VIEWS: list[str] = []  # the route the views were last made for


def route_on(spark, gen: Path, bloom: Path, route: str, filtered_facts: bool) -> None:
    # Spark's parquet and the opt-in read the same views: made again (a listing and a schema per table) only when they differ.
    route = route.removesuffix(AGAIN)
    kind = "bloomparquet" if route == "bloomparquet" else "parquet"
    if [kind] != _VIEWS:
        views(spark, gen, bloom, route, filtered_facts)
        _VIEWS[:] = [kind]
    spark.conf.set("spark.bloomparquet.parquet.enabled", "true" if route == "opted-in" else "false")


def normalized(rows: list) -> list:
    """Rows comparable across routes: floats to 9 significant digits (sums over tasks in another
    order differ in the last bits), then sorted."""

    def cell(v: object) -> object:
        if isinstance(v, float):
            return float(f"{v:.9g}")
        if isinstance(v, decimal.Decimal):
            return str(v)
        return v

    return sorted((tuple(cell(v) for v in r) for r in rows), key=repr)


def oracle_rows(spark, gen: Path, bloom: Path, text: str, timeout: float, filtered_facts: bool) -> list | None:
    """The query's rows from Spark's ``parquet`` with its filter pushdown off: no metadata skips a row group."""
    route_on(spark, gen, bloom, "parquet", filtered_facts)
    spark.conf.set("spark.sql.parquet.filterPushdown", "false")
    try:
        rows = run(spark, text, timeout)[2]
    finally:
        spark.conf.unset("spark.sql.parquet.filterPushdown")
    return None if rows is None else normalized(rows)


def run(spark, text: str, timeout: float, plan_only: bool = False) -> tuple[float, int, list | None, int]:
    """(seconds, plan nodes, rows or None when cancelled or failed, rows the scans decoded). With
    ``plan_only``, the seconds to plan (the physical plan, no job) and no rows."""
    sc = spark.sparkContext
    sc.setJobGroup("tpcds", "tpcds query", interruptOnCancel=True)
    timer = threading.Timer(timeout, lambda: sc.cancelJobGroup("tpcds"))
    started = time.perf_counter()
    timer.start()
    try:
        df = spark.sql(text)
        plan = df._jdf.queryExecution().executedPlan()
        if plan_only:
            return time.perf_counter() - started, 0, [], 0
        nodes = sum(1 for line in plan.treeString().splitlines() if line.strip())
        rows = df.collect()
        seconds = time.perf_counter() - started
        return seconds, nodes, rows, bloomparquet.scan_metrics(df).get("numOutputRows", 0)
    except Exception as e:  # noqa: BLE001 (a cancelled or failed query is reported, not fatal)
        lines = [line for line in str(e).splitlines() if "Exception" in line or "Error" in line]
        print(f"    failed: {' | '.join(lines[:3])[:600]}", flush=True)
        return time.perf_counter() - started, -1, None, -1
    finally:
        timer.cancel()


def heap_mb(spark) -> tuple[int, int]:
    """(driver heap in use after a full GC: what the session retains, MB; the heap's limit, MB)."""
    spark._jvm.java.lang.System.gc()
    rt = spark._jvm.java.lang.Runtime.getRuntime()
    return (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--out", type=Path, default=Path("bench-out/tpcds"))
    # The bench extra installs tpcgen-cli beside this interpreter (a venv's bin/ need not be on PATH).
    beside = Path(sys.executable).with_name("tpcgen-cli")
    ap.add_argument("--tpcgen", default=str(beside) if beside.exists() else shutil.which("tpcgen-cli") or "tpcgen-cli")
    ap.add_argument("--queries", default="", help="comma-separated names (default: all)")
    ap.add_argument("--routes", default=",".join(ROUTES))
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--rounds", type=int, default=2, help="runs of each query per route; the best is reported")
    ap.add_argument("--driver-memory", default="4g")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE", help="a Spark setting of the session")
    ap.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a query failed, returned other rows than the first route, or decoded more rows than it",
    )
    ap.add_argument(
        "--filtered-facts",
        action="store_true",
        help="every route reads the fact tables written with filters (the opted-in route against Spark's on the same files)",
    )
    ap.add_argument(
        "--plan-only",
        action="store_true",
        help="time planning alone (the physical plan of each query, no job, rows not compared): what routing costs",
    )
    ap.add_argument(
        "--oracle",
        action="store_true",
        help="every route's rows must equal Spark's parquet with its filter pushdown off (one untimed run per query)",
    )
    args = ap.parse_args()
    routes = args.routes.split(",")

    gen = generate(args.tpcgen, args.scale, args.out)
    conf = {"spark.driver.memory": args.driver_memory, "spark.sql.session.timeZone": "UTC", "spark.ui.enabled": "false"}
    conf.update(kv.split("=", 1) for kv in args.conf)
    spark = bloomparquet.session(**conf)
    spark.sparkContext.setLogLevel("ERROR")
    bloom = write_filtered(spark, gen, args.out) if "bloomparquet" in routes or args.filtered_facts else gen
    texts = queries()
    names = args.queries.split(",") if args.queries else list(texts)
    results = []
    peak = 0
    args.out.mkdir(parents=True, exist_ok=True)
    progress = args.out / f"tpcds-sf{args.scale:g}.jsonl"  # one row per query as it ends: a killed run keeps its rows
    progress.write_text("")
    print(f"TPC-DS SF{args.scale:g}, {len(names)} queries, routes {routes}", flush=True)
    for route in routes:  # warm-up: class loading, JIT, the OS's file cache
        route_on(spark, gen, bloom, route, args.filtered_facts)
        run(spark, texts[names[0]], args.timeout, args.plan_only)
    for i, name in enumerate(names):
        row = {"query": name}
        got = {}
        # Each query starts with another route: none is always the one that runs first. A query's
        # first run in the session (codegen, JIT of its plan shapes) costs 2-3x a later one: whichever
        # route ran first paid it; the best of --rounds rounds charges it to no route.
        for _ in range(args.rounds):
            for route in routes[i % len(routes) :] + routes[: i % len(routes)]:
                route_on(spark, gen, bloom, route, args.filtered_facts)
                seconds, nodes, rows, decoded = run(spark, texts[name], args.timeout, args.plan_only)
                best = row.get(route, {}).get("seconds", float("inf"))
                first = row.get(route, {}).get("first_seconds", seconds)
                row[route] = {
                    "seconds": min(seconds, best),
                    "first_seconds": first,
                    "nodes": nodes,
                    "ok": rows is not None,
                    "decoded": decoded,
                }
                got[route] = None if rows is None else normalized(rows)
        expected = got[routes[0]]
        if args.oracle:
            expected = oracle_rows(spark, gen, bloom, texts[name], args.timeout, args.filtered_facts)
        for route in routes:
            if got[route] is not None and expected is not None:
                row[route]["same"] = got[route] == expected
        used, limit = heap_mb(spark)
        peak = max(peak, used)
        row["heap_mb"] = used
        results.append(row)
        with progress.open("a") as f:
            f.write(json.dumps(row) + "\n")
        cells = "  ".join(
            f"{r} {row[r]['seconds']:7.2f}s {row[r]['nodes']:5d}n"
            f"{'' if row[r]['ok'] else ' FAILED'}{'' if row[r].get('same', True) else ' DIFFERENT'}"
            for r in routes
        )
        print(f"{name:6s} {cells}  heap {used} MB", flush=True)
    spark.conf.unset("spark.bloomparquet.parquet.enabled")
    problems = report(results, routes, peak, limit, "parquet with pushdown off" if args.oracle else routes[0])
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"tpcds-sf{args.scale:g}.json").write_text(json.dumps(results, indent=1))
    if args.check and problems:
        sys.exit(f"check failed: {problems}")


def report(results: list[dict], routes: list[str], peak: int, limit: int, oracle: str) -> list[str]:
    """Print the table and totals; return the queries that failed, returned other rows than ``oracle``,
    or decoded more rows than the first route."""
    base = routes[0]
    print()
    head = f"{'query':6s} " + " ".join(f"{r + ' s':>14s}" for r in routes)
    head += " " + " ".join(f"{r + '/' + base:>22s}" for r in routes[1:])
    head += " " + " ".join(f"{r + ' nodes':>18s}" for r in routes) + "  same"
    print(head)
    totals = {r: 0.0 for r in routes}
    firsts = {r: 0.0 for r in routes}
    decoded = {r: 0 for r in routes}
    over = {r: [] for r in routes[1:]}
    more_rows = {r: [] for r in routes[1:]}
    for row in results:
        if not all(row[r]["ok"] for r in routes):
            continue
        for r in routes:
            totals[r] += row[r]["seconds"]
            firsts[r] += row[r].get("first_seconds", row[r]["seconds"])
            decoded[r] += row[r].get("decoded", 0)
        for r in routes[1:]:
            if row[r].get("decoded", 0) > row[base].get("decoded", 0):
                more_rows[r].append(row["query"])
        ratios = {r: row[r]["seconds"] / row[base]["seconds"] for r in routes[1:]}
        for r, x in ratios.items():
            if x > OVER:
                over[r].append(row["query"])
        print(
            f"{row['query']:6s} "
            + " ".join(f"{row[r]['seconds']:14.2f}" for r in routes)
            + " "
            + " ".join(f"{ratios[r]:22.2f}" for r in routes[1:])
            + " "
            + " ".join(f"{row[r]['nodes']:18d}" for r in routes)
            + "  "
            + ("yes" if all(row[r].get("same", False) for r in routes) else "NO")
        )
    failed = [row["query"] + ":" + r for row in results for r in routes if not row[r]["ok"]]
    different = [row["query"] + ":" + r for row in results for r in routes if row[r]["ok"] and not row[r].get("same")]
    print()
    print("total seconds (queries that ran every way): " + ", ".join(f"{r} {totals[r]:.1f}" for r in routes))
    for r in routes[1:]:
        print(f"total ratio {r}/{base}: {totals[r] / totals[base]:.3f}; queries over {OVER}x: {len(over[r])} {over[r]}")
    # A query's first round: no route has seen its scans before (what is kept between runs of a scan doesn't count).
    print("first round total seconds: " + ", ".join(f"{r} {firsts[r]:.1f}" for r in routes))
    for r in routes[1:]:
        print(f"first round ratio {r}/{base}: {firsts[r] / firsts[base]:.3f}")
    print("rows the scans decoded: " + ", ".join(f"{r} {decoded[r]:,}" for r in routes))
    for r in routes[1:]:
        print(f"queries where {r} decoded more rows than {base}: {more_rows[r]}")
    print(f"failed or cancelled: {failed}")
    print(f"rows different from {oracle}: {different}")
    print(f"driver heap retained after a query (after a GC): peak {peak} MB of {limit} MB")
    return failed + different + [f"{q}:{r} decoded more" for r in routes[1:] for q in more_rows[r]]


if __name__ == "__main__":
    main()
