"""Run by ``spark-submit --packages io.bloomparquet:bloomparquet-spark-<minor>_<scala>:<version>`` with
bloomparquet's session extension (tests/packaging/test_maven_packages.py): plain PySpark, no
bloomparquet Python package, as on a cluster. Writes with filters, then a point miss that must start
no scan task, and SQL on a path. Prints one JSON line of what it saw; exits non-zero on any failure."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from pyspark.sql import SparkSession


def scan_metrics(spark: SparkSession, df) -> dict[str, int]:
    """The executed scans' metrics, read through the jar's own py4j entry point (the jar is all there is)."""
    metrics = spark._jvm.io.bloomparquet.python.PythonBridge.scanMetrics(df._jdf)
    return {str(k): int(v) for k, v in dict(metrics).items()}


def main() -> int:
    spark = SparkSession.builder.getOrCreate()
    assert "io.bloomparquet.BloomParquetExtensions" in spark.conf.get("spark.sql.extensions")
    out = str(Path(tempfile.mkdtemp()) / "t")
    # Even keys in shuffled order (7919 is coprime to 200,000): statistics can't prune, filters can.
    df = spark.range(0, 200_000, 1, 2).selectExpr("(id * 7919) % 200000 * 2 AS k", "concat('e', id) AS email")
    (
        df.coalesce(1)
        .write.format("bloomparquet")
        .option("bloom.columns", "k")
        .option("bloom.fpp", "0.0001")
        .option("parquet.block.size", str(256 * 1024))
        .save(out)
    )
    miss = spark.read.format("bloomparquet").load(out).where("k = 12345")  # odd: absent
    assert miss.collect() == []
    m = scan_metrics(spark, miss)
    assert m["tasks"] == 0 and m["bloomRowGroupsPrunedByBloom"] == m["bloomRowGroupsTotal"] > 1, m
    hit = spark.sql(f"SELECT email FROM bloomparquet.`{out}` WHERE k = {1234 * 7919 % 200000 * 2}")
    assert [r.email for r in hit.collect()] == ["e1234"]
    print(
        json.dumps({"spark": spark.version, "miss_tasks": m["tasks"], "hit_tasks": scan_metrics(spark, hit)["tasks"]})
    )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
