"""Does ``bloomparquet advise`` predict the pruning its recommendation achieves?

Writes a table with Spark's own Parquet writer (no filters; a shuffled
high-cardinality long and string, a sorted id), runs ``bloomparquet advise``,
applies the ``bloomparquet retrofit`` command line it prints, then measures for
20 absent and 20 stored values per recommended column, and for IN lists of 100:
row groups the filters exclude (``bloomparquet probe``) and row groups Spark
skipped (``bloomparquet.scan_metrics``), next to advise's predictions.

    .venv/bin/python bench/advise_accuracy.py [--rows 2000000] [--out /tmp/advise-bench]
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import bloomparquet
from bloomparquet.tools import probe

LOOKUPS = 20
IN_LIST = 100
IN_REPEATS = 10  # IN lists probed with bloomparquet probe (one also run as a query)


def _write(spark, out: Path, rows: int) -> None:
    """4 files of ~4 MB row groups; id sorted, key and email pseudo-random (min/max useless)."""
    df = spark.range(0, rows, 1, 4).selectExpr(
        "id",
        "(id * 2654435761) % 1000000000039 AS key",  # distinct, unrelated to id's order
        "concat('user-', (id * 40503) % 1000003, '-', id % 7) AS email",
    )
    df.write.option("parquet.block.size", 4 * 1024 * 1024).mode("overwrite").parquet(str(out))


def _values(spark, out: Path, column: str, seed: int, n: int) -> tuple[list, list]:
    """``n`` stored values drawn uniformly from the whole table, and ``n`` absent ones inside [min, max]."""
    from pyspark.sql import functions as F

    rng = np.random.default_rng(seed)
    rows = spark.read.parquet(str(out)).select(column).orderBy(F.rand(seed)).limit(n).collect()
    present = [r[0] for r in rows]
    if column == "key":
        absent = [int(v) for v in rng.integers(0, 1000000000039, size=n)]  # ~2e-6 chance each of a stored key
    else:
        absent = [f"user-{int(v)}-x" for v in rng.integers(0, 10**6, size=n)]
    return present, absent


def _probe_in_share(out: Path, column: str, values: list) -> float:
    """Share of (row group, IN list) pairs the filters exclude, for consecutive lists of IN_LIST values."""
    report = probe.run([str(out)], column, [str(v) for v in values])
    pruned = total = 0
    for f in report["files"]:
        for g in f["row_groups"]:
            results = [v["result"] == "excluded" for v in g["values"]]
            for start in range(0, len(results), IN_LIST):
                pruned += all(results[start : start + IN_LIST])
                total += 1
    return pruned / total


def _probe_share(out: Path, column: str, values: list) -> float:
    report = probe.run([str(out)], column, [str(v) for v in values])
    cells = [v["result"] == "excluded" for f in report["files"] for g in f["row_groups"] for v in g["values"]]
    return sum(cells) / len(cells)


def _query_share(spark, out: Path, column: str, values: list) -> tuple[float, int]:
    from pyspark.sql import functions as F

    kept = pruned = 0
    for v in values:
        df = spark.read.format("bloomparquet").load(str(out)).where(F.col(column) == v)
        df.collect()  # scan_metrics reads the DataFrame's own last execution (count() runs another plan)
        m = bloomparquet.scan_metrics(df)
        total = m["bloomRowGroupsTotal"]
        pruned += m["bloomRowGroupsPrunedByBloom"] + m["bloomRowGroupsPrunedByStats"]
        kept += total
    return pruned / kept, kept // len(values)


def _in_share(spark, out: Path, column: str, values: list) -> float:
    from pyspark.sql import functions as F

    df = spark.read.format("bloomparquet").load(str(out)).where(F.col(column).isin(values))
    df.collect()
    m = bloomparquet.scan_metrics(df)
    return (m["bloomRowGroupsPrunedByBloom"] + m["bloomRowGroupsPrunedByStats"]) / m["bloomRowGroupsTotal"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--out", default="/tmp/advise-bench")
    args = ap.parse_args()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    spark = bloomparquet.session(**{"spark.sql.shuffle.partitions": "4"})
    _write(spark, out, args.rows)
    cmd = [sys.executable, "-m", "bloomparquet", "advise", str(out), "--json"]
    report = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    print(subprocess.run(cmd[:-1], check=True, capture_output=True, text=True).stdout)
    for line in report["retrofit"]:
        print(f"$ {line}")
        from bloomparquet.cli import main as cli

        assert cli(shlex.split(line)[1:]) == 0
    results = {}
    for i, col in enumerate(c for c in report["columns"] if c["recommend"]):
        name, pred = col["column"], col["expected_pruned"]
        present, absent = _values(spark, out, name, seed=i, n=IN_LIST * IN_REPEATS)
        q_absent, rgs = _query_share(spark, out, name, absent[:LOOKUPS])
        q_present, _ = _query_share(spark, out, name, present[:LOOKUPS])
        results[name] = {
            "fpp": col["fpp"],
            "row_groups": rgs,
            "recurrence": col["recurrence"],
            "absent_point": {
                "predicted": pred["absent_point"],
                "probe": _probe_share(out, name, absent[:LOOKUPS]),
                "query": q_absent,
            },
            "present_point": {
                "predicted": pred["present_point"],
                "probe": _probe_share(out, name, present[:LOOKUPS]),
                "query": q_present,
            },
            f"absent_in_{IN_LIST}": {
                "predicted": pred[f"absent_in_{IN_LIST}"],
                "probe": _probe_in_share(out, name, absent),  # IN_REPEATS lists
                "query": _in_share(spark, out, name, absent[:IN_LIST]),
            },
            f"present_in_{IN_LIST}": {
                "predicted": pred[f"present_in_{IN_LIST}"],
                "probe": _probe_in_share(out, name, present),
                "query": _in_share(spark, out, name, present[:IN_LIST]),
            },
        }
    print(json.dumps(results, indent=2))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
