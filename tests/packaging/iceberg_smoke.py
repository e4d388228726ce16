"""Run in a Spark that holds Apache Iceberg's runtime and bloomparquet however a user loaded them
(spark-submit ``--packages`` or ``--jars``; tests/packaging/test_iceberg_loading.py): plain PySpark, the
jar's own py4j entry point for metrics. Writes an Iceberg table (a Hadoop catalog named ``lake``, given
by the command line) whose files carry Iceberg's own filters on ``k``, then reads a point miss and a hit
with ``spark.bloomparquet.iceberg.enabled`` off and on. Prints one JSON line: what it saw. Exits
non-zero on a wrong row."""

from __future__ import annotations

import json
import sys

from pyspark.sql import SparkSession

TABLE = "lake.db.keys"
MISS = 4294967297  # odd: never written
HIT_ID = 7


def main() -> int:
    spark = SparkSession.builder.getOrCreate()
    spark.sql(f"DROP TABLE IF EXISTS {TABLE}")
    spark.sql(
        f"CREATE TABLE {TABLE} (k BIGINT, id BIGINT) USING iceberg TBLPROPERTIES ("
        "'write.parquet.bloom-filter-enabled.column.k' = 'true', 'write.parquet.bloom-filter-fpp.column.k' = '0.0001')"
    )
    # Even keys scattered over every file: statistics can't prune, filters can. One file an append.
    for i in range(4):
        part = spark.range(i * 20_000, (i + 1) * 20_000).selectExpr("(id * 2654435761 % 4294967296) * 2 AS k", "id")
        part.coalesce(1).writeTo(TABLE).append()
    seen: dict[str, object] = {"spark": spark.version}
    for way in ("false", "true"):
        spark.conf.set("spark.bloomparquet.iceberg.enabled", way)
        miss = spark.table(TABLE).where(f"k = {MISS}")
        assert miss.collect() == []
        metrics = dict(spark._jvm.io.bloomparquet.python.PythonBridge.scanMetrics(miss._jdf))
        hit = spark.table(TABLE).where(f"k = {(HIT_ID * 2654435761 % 4294967296) * 2}").collect()
        assert [r.id for r in hit] == [HIT_ID], hit
        seen["on" if way == "true" else "alone"] = {str(k): int(v) for k, v in metrics.items()}
    print(json.dumps(seen))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
