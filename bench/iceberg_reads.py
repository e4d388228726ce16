"""Apache Iceberg reads with and without bloomparquet (``spark.bloomparquet.iceberg.enabled``), one session.

    .venvs/spark-4.1/bin/python bench/iceberg_reads.py                  # 10 M rows in 64 files
    .venvs/spark-4.1/bin/python bench/iceberg_reads.py --latency-ms 20  # every request 20 ms

Writes (once, into bench-out/iceberg-<rows>x<files>, a Hadoop catalog) an Iceberg table with
Iceberg's own writer and its bloom filters on ``k`` (high-cardinality keys scattered so every
file's min/max spans the whole range: Iceberg's statistics prune nothing) and ``email``, sized by
Iceberg's NDV property for a file's keys at FPP 1 %. Then, per query and way, best of
``--rounds`` wall times, the ways alternating:

- ``iceberg``: Iceberg alone (the conf off): its planning, then its in-task row-group filters
  (statistics, dictionaries, bloom filters), its defaults;
- ``bloomparquet``: the conf on (data files pruned by their filters while Spark plans the query).

``--latency-ms N`` writes the table under the test jar's latency-injecting file system
(``slow://``, no latency while writing) and reads it with N ms per open and positioned read, as
an object store costs a request: Iceberg's manifests, footers and filters pay it, in tasks or
while planning.

Queries: point miss and hit, an email hit, IN 10 present keys (each in another file), a join with 10
keys the driver holds (a Python list: pruned while planning), the same with the keys in an Iceberg
table (read by a job of their own while planning), a full scan and a range predicate
nothing can prune with a filter. Reported: wall time, the ratio, tasks, rows the scan decoded, and the bound a file without any of
the n probed values survives filters of false-positive rate p with: 1 - (1 - p)^n. Rows are
checked equal between the ways.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import slow_store  # noqa: E402 (the script's own folder: bench/)

SCATTER, MODULUS = 2654435761, 1_000_000_007
FPP = 0.01
EXTENSION = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"


def key(i: int) -> int:
    return i * SCATTER % MODULUS * 2


def write(spark: Any, table: str, rows: int, files: int) -> None:
    if spark.catalog.tableExists(table):
        return
    ndv = rows // files + 1
    props = {
        "write.parquet.bloom-filter-enabled.column.k": "true",
        "write.parquet.bloom-filter-enabled.column.email": "true",
        "write.parquet.bloom-filter-ndv.column.k": ndv,
        "write.parquet.bloom-filter-ndv.column.email": ndv,
        "write.parquet.bloom-filter-fpp.column.k": FPP,
        "write.parquet.bloom-filter-fpp.column.email": FPP,
        "write.parquet.bloom-filter-max-bytes": 64 << 20,
        "write.target-file-size-bytes": 1 << 40,
    }
    listed = ", ".join(f"'{k}' = '{v}'" for k, v in props.items())
    spark.sql(f"CREATE TABLE {table} (k BIGINT, email STRING, v INT) USING iceberg TBLPROPERTIES ({listed})")
    frame(spark, rows, files).writeTo(table).append()


def frame(spark: Any, rows: int, files: int) -> Any:
    """The table's rows, a run of ids per file: ``k`` keys scattered over the whole range, ``email``, ``v``."""
    return spark.range(rows, numPartitions=files).selectExpr(
        f"id * {SCATTER} % {MODULUS} * 2 AS k",
        "concat('user-', cast(id AS string), '@mail.example') AS email",
        "cast(id % 1000 AS int) AS v",
    )


def seconds(spark: Any, sql: str) -> float:
    started = time.perf_counter()
    spark.sql(sql).collect()
    return time.perf_counter() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--files", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-out")
    ap.add_argument("--latency-ms", type=int, default=0, help="read through slow:// at this latency per request")
    args = ap.parse_args()

    import bloomparquet as bp

    package = bp.iceberg_package()
    if package is None:
        raise SystemExit("this Spark has no Iceberg support in bloomparquet: run with .venvs/spark-4.1")
    warehouse = (args.out / f"iceberg-{args.rows}x{args.files}").resolve()
    conf = {
        "spark.jars.packages": package,
        "spark.sql.extensions": EXTENSION,
        "spark.sql.catalog.bench": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.bench.type": "hadoop",
        "spark.sql.catalog.bench.warehouse": f"slow://{warehouse}-slow" if args.latency_ms else str(warehouse),
        "spark.driver.memory": "4g",
        "spark.ui.enabled": "false",
    }
    if args.latency_ms:
        conf |= slow_store.session_conf()
        conf["spark.jars.packages"] = package  # session_conf sets spark.jars only
    spark = bp.session(master="local[2]", **conf)
    if args.latency_ms:
        slow_store.set_latency(spark, 0)
    table = "bench.db.t"
    started = time.perf_counter()
    write(spark, table, args.rows, args.files)
    print(f"table: {warehouse} ({time.perf_counter() - started:.1f} s to make)", flush=True)
    if args.latency_ms:
        slow_store.set_latency(spark, args.latency_ms)

    present = key(12345)
    # Ten present keys, one in each of ten files (a file holds a run of ids).
    spread = [key(i * (args.rows // 10) + 12345) for i in range(10)]
    ten = ", ".join(map(str, spread))
    spark.createDataFrame([(k,) for k in spread], "k BIGINT").createOrReplaceTempView("few_keys")
    spark.createDataFrame([(k,) for k in spread], "k BIGINT").writeTo("bench.db.few_keys").createOrReplace()
    queries: dict[str, tuple[str, int]] = {
        # Odd: never written, and inside every file's min/max (statistics keep every file).
        "point miss": (f"SELECT * FROM {table} WHERE k = {present + 1}", 1),
        "point hit": (f"SELECT * FROM {table} WHERE k = {present}", 1),
        "email hit": (f"SELECT * FROM {table} WHERE email = 'user-777@mail.example'", 1),
        "IN 10 present": (f"SELECT * FROM {table} WHERE k IN ({ten})", 10),
        "key-set join, 10 keys from a Python list": (f"SELECT t.* FROM {table} t JOIN few_keys f ON t.k = f.k", 10),
        "key-set join, 10 keys in a table": (f"SELECT t.* FROM {table} t JOIN bench.db.few_keys f ON t.k = f.k", 10),
        "full scan": (f"SELECT count(*), sum(v), max(email) FROM {table}", 0),
        "range (no filter use)": (f"SELECT count(*) FROM {table} WHERE v BETWEEN 10 AND 12", 0),
    }
    ways = {"iceberg": "false", "bloomparquet": "true"}
    results = []
    for name, (sql, probes) in queries.items():
        best = {way: float("inf") for way in ways}
        for on in ways.values():  # warm: the JIT, Iceberg's metadata, the footer cache (bloomparquet)
            spark.conf.set("spark.bloomparquet.iceberg.enabled", on)
            seconds(spark, sql)
        for r in range(args.rounds):  # rounds alternate the ways and their order: drift hits both alike
            for way in list(ways) if r % 2 == 0 else list(reversed(ways)):
                spark.conf.set("spark.bloomparquet.iceberg.enabled", ways[way])
                best[way] = min(best[way], seconds(spark, sql))
        row: dict[str, Any] = {"query": name, "probed": probes}
        answers = {}
        for way, on in ways.items():
            spark.conf.set("spark.bloomparquet.iceberg.enabled", on)
            df = spark.sql(sql)
            answers[way] = sorted(map(tuple, df.collect()), key=repr)
            m = bp.scan_metrics(df)
            row |= {f"{way}_s": best[way], f"{way}_tasks": m.get("tasks", 0), f"{way}_rows": m.get("numOutputRows", 0)}
        row["same_rows"] = answers["iceberg"] == answers["bloomparquet"]
        row["ratio"] = row["bloomparquet_s"] / row["iceberg_s"]
        row["survival_bound"] = 1 - (1 - FPP) ** probes if probes else None
        results.append(row)
        print(json.dumps(row), flush=True)

    print(
        "\n| query | Iceberg s | bloomparquet s | ratio | tasks (Iceberg / ours) | rows decoded (Iceberg / ours) | bound | same rows |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        bound = "-" if r["survival_bound"] is None else f"{r['survival_bound']:.3f}"
        print(
            f"| {r['query']} | {r['iceberg_s']:.3f} | {r['bloomparquet_s']:.3f} | {r['ratio']:.2f}x | "
            f"{r['iceberg_tasks']} / {r['bloomparquet_tasks']} | {r['iceberg_rows']} / {r['bloomparquet_rows']} | "
            f"{bound} | {r['same_rows']} |"
        )
    spark.stop()
    return 0 if all(r["same_rows"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
