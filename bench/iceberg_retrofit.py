"""Retrofit of an Apache Iceberg table against Iceberg's own ``rewrite_data_files``, one session.

    .venvs/spark-4.1/bin/python bench/iceberg_retrofit.py              # 10 M rows in 64 files, best of 3
    .venvs/spark-4.1/bin/python bench/iceberg_retrofit.py --races 20   # and 20 races against an UPDATE

Per round, three identical copies of a table written without filters (``k`` high-cardinality keys,
``email``, ``v``; a Hadoop catalog in bench-out/iceberg-retrofit-<rows>x<files>), each then given
filters on ``k`` and ``email`` or not, the ways alternating their order:

- ``rewrite``: ``CALL system.rewrite_data_files`` with ``rewrite-all`` (every file rewritten, no
  filters; the target file size the files' mean, so as many files come out, written in parallel):
  the yardstick the issue names;
- ``rewrite + filters``: the table properties of ``bp.iceberg_filter_properties`` set (their sizing
  counts the table's distinct values), then the same call: Iceberg's writer writes the filters;
- ``retrofit``: ``bp.retrofit(..., format="iceberg")``: each file's bytes copied, filters appended,
  one ``replace`` snapshot through ``RewriteFiles``.

Speed ratio = rewrite time / way's time (higher is faster). After each way: the rows are counted
equal to the source, and a point miss's tasks are counted: with filters at p = 0.01 each file
without the key survives with probability 0.01 (64 files: 0.64 expected), without filters all do.
``--races N``: N rounds of a retrofit and an UPDATE of one row started at once on a small table
(merge-on-read), each round checked: every command that succeeded applied once, no row lost.
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

from tests.races import at_once  # noqa: E402

import iceberg_reads  # noqa: E402 (the script's own folder: bench/)

EXTENSION = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"
COLUMNS = ["k", "email"]


def write_copy(spark: Any, table: str, rows: int, files: int) -> None:
    spark.sql(f"DROP TABLE IF EXISTS {table} PURGE")
    spark.sql(
        f"CREATE TABLE {table} (k BIGINT, email STRING, v INT) USING iceberg "
        "TBLPROPERTIES ('write.target-file-size-bytes' = '1099511627776', 'write.delete.mode' = 'merge-on-read', "
        "'write.update.mode' = 'merge-on-read')"
    )
    iceberg_reads.frame(spark, rows, files).writeTo(table).append()


def rewrite(spark: Any, table: str) -> None:
    catalog, name = table.split(".", 1)
    # Files of the size the table has, as many: written in parallel, as the copies' files are.
    size = spark.sql(f"SELECT CAST(avg(file_size_in_bytes) AS BIGINT) FROM {table}.files").first()[0]
    spark.sql(
        f"CALL {catalog}.system.rewrite_data_files(table => '{name}', "
        f"options => map('rewrite-all', 'true', 'target-file-size-bytes', '{size}'))"
    )


def give_filters(spark: Any, table: str) -> None:
    import bloomparquet as bp

    props = bp.iceberg_filter_properties(spark, table, COLUMNS, fpp=0.01)
    listed = ", ".join(f"'{k}' = '{v}'" for k, v in props.items())
    spark.sql(f"ALTER TABLE {table} SET TBLPROPERTIES ({listed})")
    rewrite(spark, table)


def retrofit(spark: Any, table: str) -> None:
    import bloomparquet as bp

    bp.retrofit(spark, table, COLUMNS, fpp=0.01, format="iceberg")


def check(spark: Any, table: str, rows: int) -> dict[str, Any]:
    import bloomparquet as bp

    spark.conf.set("spark.bloomparquet.iceberg.enabled", "true")
    assert spark.table(table).count() == rows, table
    df = spark.sql(f"SELECT * FROM {table} WHERE k = 3")  # odd: never written
    assert df.collect() == []
    tasks = bp.scan_metrics(df).get("tasks", 0)
    spark.conf.set("spark.bloomparquet.iceberg.enabled", "false")
    return {"miss_tasks": tasks}


def race(spark: Any, table: str, i: int) -> str:
    import bloomparquet as bp

    write_copy(spark, table, 20_000, 4)
    errors = at_once(
        retrofit=lambda: bp.retrofit(spark, table, ["k"], format="iceberg"),
        statement=lambda: spark.sql(f"UPDATE {table} SET email = 'r{i}' WHERE v = 7"),
    )
    changed = spark.sql(f"SELECT count(*) FROM {table} WHERE email = 'r{i}'").first()[0]
    total = spark.table(table).count()
    updated = errors["statement"] is None
    if total != 20_000 or changed != (20 if updated else 0):
        raise AssertionError(f"race {i}: {total} rows, {changed} updated, errors {errors}")
    if errors["retrofit"] and errors["statement"]:
        return "both failed"
    return "retrofit failed" if errors["retrofit"] else "update failed" if errors["statement"] else "both succeeded"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--files", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--races", type=int, default=0)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-out")
    args = ap.parse_args()

    import bloomparquet as bp

    package = bp.iceberg_package()
    if package is None:
        raise SystemExit("this Spark has no Iceberg support in bloomparquet: run with .venvs/spark-4.1")
    warehouse = (args.out / f"iceberg-retrofit-{args.rows}x{args.files}").resolve()
    spark = bp.session(
        master="local[2]",
        **{
            "spark.jars.packages": package,
            "spark.sql.extensions": EXTENSION,
            "spark.sql.catalog.bench": "org.apache.iceberg.spark.SparkCatalog",
            "spark.sql.catalog.bench.type": "hadoop",
            "spark.sql.catalog.bench.warehouse": str(warehouse),
            "spark.driver.memory": "4g",
            "spark.ui.enabled": "false",
        },
    )
    ways = {"rewrite": rewrite, "rewrite + filters": give_filters, "retrofit": retrofit}
    best = {way: float("inf") for way in ways}
    checks: dict[str, Any] = {}
    for r in range(args.rounds):
        for way in list(ways) if r % 2 == 0 else list(reversed(ways)):
            table = f"bench.db.copy_{way.replace(' + ', '_')}"
            write_copy(spark, table, args.rows, args.files)
            started = time.perf_counter()
            ways[way](spark, table)
            best[way] = min(best[way], time.perf_counter() - started)
            checks[way] = check(spark, table, args.rows)
            print(json.dumps({"round": r, "way": way, "seconds": best[way], **checks[way]}), flush=True)
    print(f"\n| way | s (best of {args.rounds}) | speed vs rewrite_data_files | point-miss tasks after |")
    print("|---|---|---|---|")
    for way in ways:
        print(f"| {way} | {best[way]:.2f} | {best['rewrite'] / best[way]:.2f}x | {checks[way]['miss_tasks']} |")
    if args.races:
        outcomes: dict[str, int] = {}
        for i in range(args.races):
            o = race(spark, "bench.db.race", i)
            outcomes[o] = outcomes.get(o, 0) + 1
        print(f"\nraces: {args.races} rounds, every one checked (no row lost or doubled): {json.dumps(outcomes)}")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
