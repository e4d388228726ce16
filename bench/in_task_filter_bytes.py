"""Bytes read inside tasks by a query whose row groups all survive pruning:
with bloom filters judged once (by bloomparquet) the tasks read no filter.

    .venv/bin/python bench/in_task_filter_bytes.py                  # the dev jar
    BLOOMPARQUET_JAR=old.jar .venv/bin/python bench/in_task_filter_bytes.py   # another build

Writes 8 files (our writer, a filter on `g`; every row group holds every `g`),
runs `count(*) WHERE g = 5` once to warm the footer and filter cache, then
once more, and prints the local file system's bytes read by that second run
(Hadoop FileSystem statistics; in local mode the tasks run in this JVM) per
route, next to the bytes of all `g` filters in the files: what parquet-java
re-reads in the tasks when it judges the filters again. Plan mode reads
nothing on the driver with a warm cache, so its figure is the tasks' alone.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

import bloomparquet as bp


def _bytes_read(spark) -> int:
    stats = spark._jvm.org.apache.hadoop.fs.FileSystem.getAllStatistics()
    return sum(s.getBytesRead() for s in stats if s.getScheme() == "file")


def main() -> int:
    spark = bp.session(**{"spark.sql.session.timeZone": "UTC"})
    out = Path(tempfile.mkdtemp(prefix="in-task-bytes-")) / "data"
    (
        spark.range(0, 800_000, numPartitions=8)
        .selectExpr("id", "id % 5000 AS g")
        .write.format("bloomparquet")
        .option("bloom.columns", "g")
        .option("parquet.block.size", 256 * 1024)
        .save(str(out))
    )
    filters = row_groups = 0
    for f in out.glob("*.parquet"):
        meta = pq.ParquetFile(f).metadata
        row_groups += meta.num_row_groups
        filters += sum(meta.row_group(i).column(1).bloom_filter_length for i in range(meta.num_row_groups))
    print(f"{row_groups} row groups, g filters: {filters} bytes")
    d = str(out)
    routes = {
        "plan": lambda: bp.read_bloom(spark, d),
        "task": lambda: bp.read_bloom(spark, d, **{"bloom.mode": "task"}),
        "sql (V1)": lambda: spark.sql(f"SELECT * FROM bloomparquet.`{d}`"),
        "parquet": lambda: spark.read.parquet(d),
    }
    for name, df in routes.items():
        df().where("g = 5").count()
        before = _bytes_read(spark)
        n = df().where("g = 5").count()
        print(f"{name:9} rows {n:4}  bytes read by the warm run: {_bytes_read(spark) - before}")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
