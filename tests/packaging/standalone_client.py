"""A PySpark application in client mode on a standalone master (tests/packaging/test_standalone_cluster.py):
``bloomparquet.configure`` on the user's own builder, executors started by a standalone worker. Writes
keys with filters, then a point miss (no scan task) and a hit, each compared with Spark's ``parquet``
with pushdown off. Prints one JSON line of what it saw.
Usage: standalone_client.py MASTER_URL DATA_DIR"""

from __future__ import annotations

import json
import sys

from pyspark.sql import SparkSession

import bloomparquet as bp


def main() -> int:
    master, out = sys.argv[1], sys.argv[2] + "/keys"
    spark = bp.configure(
        SparkSession.builder.master(master).appName("bloomparquet-client-mode"),
        **{"spark.executor.memory": "1g", "spark.cores.max": "2", "spark.ui.enabled": "false"},
    ).getOrCreate()
    # Even keys in shuffled order (7919 is coprime to 200,000): statistics can't prune, filters can.
    df = spark.range(0, 200_000, 1, 2).selectExpr("(id * 7919) % 200000 * 2 AS k", "concat('e', id) AS email")
    bp.write_bloom(
        df.coalesce(1), out, columns=["k"], fpp=0.0001, mode="overwrite", **{"parquet.block.size": 256 * 1024}
    )
    hit_key = 1234 * 7919 % 200000 * 2
    miss = bp.read_bloom(spark, out).where("k = 12345")
    miss_rows = miss.collect()
    metrics = bp.scan_metrics(miss)
    hit = sorted(r.email for r in bp.read_bloom(spark, out).where(f"k = {hit_key}").collect())
    spark.conf.set("spark.sql.parquet.filterPushdown", "false")
    plain = spark.read.parquet(out)
    expected_hit = sorted(r.email for r in plain.where(f"k = {hit_key}").collect())
    expected_miss = plain.where("k = 12345").collect()
    executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
    print(
        json.dumps(
            {
                "spark": spark.version,
                "executors": executors,
                "miss_tasks": metrics.get("tasks"),
                "row_groups": metrics.get("bloomRowGroupsTotal"),
                "pruned": metrics.get("bloomRowGroupsPrunedByBloom"),
                "hit": hit,
                "same_as_parquet": hit == expected_hit and miss_rows == expected_miss,
            }
        )
    )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
