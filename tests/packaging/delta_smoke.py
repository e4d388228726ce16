"""Run in a Spark that holds Delta Lake and bloomparquet however a user loaded them (spark-submit
``--packages`` or ``--jars``, ``spark.driver.extraClassPath``, or the wheel with delta-spark's
``configure_spark_with_delta_pip``; tests/packaging/test_delta_loading.py): plain PySpark, the jar's
own py4j entry point for metrics. Writes a Delta table whose files carry filters on ``k``, then reads a
point miss and a hit with ``spark.bloomparquet.delta.enabled`` on. Prints one JSON line: what it saw,
or the error the conf was refused with. Exits non-zero on a wrong row."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from py4j.protocol import Py4JJavaError
from pyspark.errors import PySparkException
from pyspark.sql import SparkSession

FILTERS = {
    "parquet.bloom.filter.enabled#k": "true",
    "parquet.bloom.filter.expected.ndv#k": "20000",
    "parquet.bloom.filter.fpp#k": "0.0001",
}


def main(builder: SparkSession.Builder | None = None) -> int:
    spark = (builder or SparkSession.builder).getOrCreate()
    out = str(Path(tempfile.mkdtemp()) / "t")
    for key, value in FILTERS.items():
        spark.conf.set(key, value)
    # Even keys scattered over every file: statistics can't prune, filters can.
    df = spark.range(80_000).selectExpr("(id * 2654435761 % 4294967296) * 2 AS k", "id").repartition(4)
    df.write.format("delta").save(out)
    spark.conf.set("spark.bloomparquet.delta.enabled", "true")
    table = spark.read.format("delta").load(out)
    miss = table.where("k = 4294967297")  # odd: never written
    try:
        got = miss.collect()
    except (Py4JJavaError, PySparkException) as e:  # the conf refused: say why, as the user sees it
        why = next((line for line in str(e).splitlines() if "is refused" in line), str(e))
        print(json.dumps({"spark": spark.version, "refused": why}))
        return 0
    assert got == [], got
    metrics = dict(spark._jvm.io.bloomparquet.python.PythonBridge.scanMetrics(miss._jdf))
    hit = table.where(f"k = {(7 * 2654435761 % 4294967296) * 2}").collect()
    assert [r.id for r in hit] == [7], hit
    print(json.dumps({"spark": spark.version, **{str(k): int(v) for k, v in metrics.items()}}))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
