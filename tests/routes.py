"""Test helper: every way a query reaches bloomparquet over one directory of Parquet files,
each as (what is queried, session confs held while it runs), and Spark's ``parquet`` over the
same files as the oracle (query it under ``spark_conf.PUSHDOWN_OFF``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pyspark.sql import DataFrame

import bloomparquet as bp

# SQL routes: with the session extension catalog tables, SQL on paths and views plan through the V2 scan;
# "sql_v1" keeps Spark's V1 file route (BloomParquetFileFormat, in-task pruning) covered in the same session.
V1_ROUTE = {"spark.bloomparquet.sql.planTimePruning": "false"}
PARQUET_OPT_IN = {"spark.bloomparquet.parquet.enabled": "true"}
# Spark's price of an open is also the largest gap of pruned row groups read between two surviving runs;
# at 0 every run of survivors is a split of its own (the other routes, at 4 MB, read such gaps).
NO_GAP_READS = {"spark.sql.files.openCostInBytes": "0"}

Routes = dict[str, tuple[DataFrame, dict[str, str]]]


@contextmanager
def bloom_routes(spark, path: Path, name: str) -> Iterator[tuple[DataFrame, Routes]]:
    """(oracle, routes) over ``path``: DataFrame reads in plan and task mode (with and without gap
    reads), SQL on the path (V2 and V1), catalog tables over the path (plan and task mode), a temp
    view over the table, and plain parquet opted in (DataFrame and a USING parquet table). The
    tables are named after ``name`` and dropped afterwards (external: the files stay)."""
    tables = {
        f"{name}_bloom": "bloomparquet",
        f"{name}_task": "bloomparquet OPTIONS ('bloom.mode' = 'task')",
        f"{name}_parquet": "parquet",
    }
    for table, using in tables.items():
        spark.sql(f"CREATE TABLE {table} USING {using} LOCATION '{path}'")
    spark.sql(f"SELECT * FROM {name}_bloom").createOrReplaceTempView(f"{name}_view")
    sql = spark.sql(f"SELECT * FROM bloomparquet.`{path}`")
    # Each query re-plans (and re-prunes); reading the directory once saves listing and schema inference.
    try:
        yield (
            spark.read.parquet(str(path)),
            {
                "plan": (bp.read_bloom(spark, str(path)), {}),
                "task": (bp.read_bloom(spark, str(path), **{"bloom.mode": "task"}), {}),
                "plan_no_gap_reads": (bp.read_bloom(spark, str(path)), NO_GAP_READS),
                "task_no_gap_reads": (bp.read_bloom(spark, str(path), **{"bloom.mode": "task"}), NO_GAP_READS),
                # Only the blocks the probes hash to, whatever the cost model would choose.
                "plan_blocks": (bp.read_bloom(spark, str(path), **{"bloom.filterReads": "blocks"}), {}),
                "task_blocks": (
                    bp.read_bloom(spark, str(path), **{"bloom.mode": "task", "bloom.filterReads": "blocks"}),
                    {},
                ),
                "sql": (sql, {}),
                "sql_v1": (sql, V1_ROUTE),
                "table": (spark.table(f"{name}_bloom"), {}),
                "table_task": (spark.table(f"{name}_task"), {}),
                "view": (spark.table(f"{name}_view"), {}),
                "parquet_opt_in": (spark.read.parquet(str(path)), PARQUET_OPT_IN),
                "parquet_table": (spark.table(f"{name}_parquet"), PARQUET_OPT_IN),
            },
        )
    finally:
        spark.catalog.dropTempView(f"{name}_view")
        for table in tables:
            spark.sql(f"DROP TABLE {table}")
