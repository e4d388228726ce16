"""Delta Lake writes that carry filters, and retrofit of a Delta table, one session.

    .venvs/spark-4.2/bin/python bench/delta_writes.py                  # 10 M rows in 64 files
    .venvs/spark-4.2/bin/python bench/delta_writes.py --rows 2000000 --files 16 --races 20

Three measurements, best of ``--rounds`` where timed:

- **write**: the same rows appended to a new Delta table three ways: no filters; parquet-java's
  filters as users set them today (``parquet.bloom.filter.enabled#k`` and ``#email`` in the session,
  no NDV: every filter ``parquet.bloom.filter.max.bytes``, 1 MiB); and the table's ``bloom.columns``
  property (bloomparquet's settings: parquet-java's adaptive filters at our sizing), also with
  ``bloom.ndv.<column>`` given (one filter per column, sized for that count). Reported: wall
  time, its ratio to no filters, filter bytes per file, and the measured false-positive rate of the
  written filters for absent keys.
- **retrofit**: the filter-less table's files retrofitted (``bp.retrofit(..., format="delta")``: new
  files, one ``dataChange=false`` commit) against a Parquet copy of the same table (read and write
  it again as Parquet), the issue's yardstick. Speed ratio = copy time / retrofit time.
- **race**: ``--races`` rounds of retrofit and an UPDATE of one row started at once on a small
  table; each round's outcome (which one Delta's conflict check failed, or both succeeded one
  after the other) and that the rows are right every time.

Results go to bench-out/delta-writes-<rows>x<files>/results.json and stdout.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.delta.tables import race_retrofit  # noqa: E402

DELTA_EXTENSION = "io.delta.sql.DeltaSparkSessionExtension"

SCATTER, MODULUS = 2654435761, 1_000_000_007


def frame(spark: Any, rows: int, files: int) -> Any:
    return (
        spark.range(rows)
        .selectExpr(
            f"id * {SCATTER} % {MODULUS} * 2 AS k",
            "concat('user', cast(id AS string), '@example.com') AS email",
            "id % 97 AS g",
        )
        .repartition(files)
    )


def best(run: Callable[[], Any], rounds: int, before: Callable[[], Any] = lambda: None) -> float:
    times = []
    for _ in range(rounds):
        before()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def filter_stats(path: Path) -> dict[str, float]:
    """Filter bytes per file and the measured FPP of the k filters for 100,000 absent (odd) keys."""
    from bloomparquet.reference import read_bloom_filters, xxh64_plain

    files = sorted(path.glob("*.parquet"))
    filters = [(c, f) for p in files for (_, c), f in read_bloom_filters(p).items()]
    if not filters:
        return {"filter_bytes_per_file": 0.0, "fpp_k": 1.0}
    absent = xxh64_plain(np.arange(1, 200_001, 2, dtype=np.int64), "INT64")
    k = [f for c, f in filters if c == "k"]
    return {
        "filter_bytes_per_file": sum(f.num_bytes for _, f in filters) / len(files),
        "fpp_k": float(np.mean([f.check_hashes(absent).mean() for f in k])),
    }


def race_round(spark: Any, race: Path, i: int) -> str:
    """Retrofit and an UPDATE of one row at once on a fresh table: which one failed; the rows checked."""
    shutil.rmtree(race, ignore_errors=True)
    frame(spark, 20_000, 4).write.format("delta").save(str(race))
    first = spark.read.format("delta").load(str(race)).limit(1).collect()[0]
    errors = race_retrofit(spark, race, f"UPDATE delta.`{race}` SET email = 'r{i}' WHERE k = {first.k}")
    table = spark.read.format("delta").load(str(race))
    if table.count() != 20_000 or errors["retrofit"] and errors["statement"]:
        raise RuntimeError(f"round {i}: rows lost or duplicated, or both failed: {errors}")
    if table.where(f"k = {first.k}").collect()[0].email != (first.email if errors["statement"] else f"r{i}"):
        raise RuntimeError(f"round {i}: the UPDATE's row is not what its outcome says: {errors}")
    return "retrofit failed" if errors["retrofit"] else "update failed" if errors["statement"] else "both succeeded"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--files", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--races", type=int, default=10)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-out")
    args = ap.parse_args()

    import bloomparquet as bp

    package = bp.delta_package()
    if package is None:
        raise SystemExit("Delta Lake has no release for this Spark: run with a venv of a minor it has one for")
    spark = bp.session(
        master="local[2]",
        **{
            "spark.jars.packages": package,
            "spark.sql.extensions": DELTA_EXTENSION,
            "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
            "spark.driver.memory": "6g",
        },
    )
    out = args.out / f"delta-writes-{args.rows}x{args.files}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    source = out / "source"
    frame(spark, args.rows, args.files).write.parquet(str(source))
    data = spark.read.parquet(str(source)).repartition(args.files)
    per_file = -(-args.rows // args.files)
    results: dict[str, Any] = {"rows": args.rows, "files": args.files}

    parquet_java = {"parquet.bloom.filter.enabled#k": "true", "parquet.bloom.filter.enabled#email": "true"}
    ways: dict[str, tuple[str, dict[str, str]]] = {
        "none": ("", {}),
        "parquet-java": ("", parquet_java),
        "bloom.columns": ("TBLPROPERTIES ('bloom.columns' = 'k, email')", {}),
        # Distinct values per row group given (here: rows per file, one row group each): one filter per column.
        "bloom.ndv": (
            "TBLPROPERTIES ('bloom.columns' = 'k, email', "
            f"'bloom.ndv.k' = '{per_file}', 'bloom.ndv.email' = '{per_file}')",
            {},
        ),
    }
    writes: dict[str, dict[str, float]] = {}
    for way, (props, conf) in ways.items():
        table = out / f"write-{way.replace('.', '-')}"

        def fresh(table: Path = table, props: str = props) -> None:
            shutil.rmtree(table, ignore_errors=True)
            spark.sql(f"CREATE TABLE delta.`{table}` (k BIGINT, email STRING, g BIGINT) USING delta {props}")

        def append(table: Path = table, conf: dict[str, str] = conf) -> None:
            for k, v in conf.items():
                spark.conf.set(k, v)
            try:
                data.write.format("delta").mode("append").save(str(table))
            finally:
                for k in conf:
                    spark.conf.unset(k)

        writes[way] = {"seconds": best(append, args.rounds, fresh), **filter_stats(table)}
    for way, w in writes.items():
        w["ratio"] = w["seconds"] / writes["none"]["seconds"]
        print(
            f"write {way:<14} {w['seconds']:7.2f} s  {w['ratio']:5.2f}x  "
            f"{w['filter_bytes_per_file'] / 2**10:9.1f} KiB filters/file  fpp(k) {w['fpp_k']:.4f}"
        )
    results["write"] = writes

    plain = out / "write-none"
    copy_to = out / "parquet-copy"
    copy = best(
        lambda: spark.read.format("delta").load(str(plain)).write.mode("overwrite").parquet(str(copy_to)), args.rounds
    )
    start = time.perf_counter()
    done = bp.retrofit(spark, str(plain), ["k", "email"], fpp=0.01, format="delta")
    retrofit = time.perf_counter() - start
    assert {r["status"] for r in done} == {"retrofitted"}
    results["retrofit"] = {"parquet_copy_seconds": copy, "retrofit_seconds": retrofit, "speed_ratio": copy / retrofit}
    print(f"retrofit {retrofit:7.2f} s, Parquet copy {copy:7.2f} s: retrofit speed {copy / retrofit:.2f}x the copy's")

    outcomes: Counter[str] = Counter(race_round(spark, out / "race", i) for i in range(args.races))
    results["race"] = dict(outcomes)
    print(f"race, {args.races} rounds: {dict(outcomes)}; rows right every round")
    (out / "results.json").write_text(json.dumps(results, indent=2))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
