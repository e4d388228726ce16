"""Hive Parquet tables (``STORED AS PARQUET``: external, managed, partitioned) that Spark converts to its own Parquet relation
(``spark.sql.hive.convertMetastoreParquet``, on by default): with the opt-in
``spark.bloomparquet.parquet.enabled`` they plan through bloomparquet's V2 scan (a point miss
starts no task), rows equal to the same table read with pushdown off; without the opt-in, and
with Spark's conversion off (Hive's SerDe reads them), they are left as they are.

A Hive catalog is chosen when the JVM's first session starts, so the queries run in a Python
process of their own with a Derby metastore under ``tmp_path``; it prints one JSON object.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import TEST_JAR

pytestmark = pytest.mark.spark

SCRIPT = r"""
import json, sys
import bloomparquet as bp

root = sys.argv[1]
spark = bp.session(**{
    "spark.sql.catalogImplementation": "hive",
    "spark.sql.warehouse.dir": f"{root}/warehouse",
    "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={root}/metastore;create=true",
    "spark.driver.extraJavaOptions": f"-Dderby.system.home={root}",
    "spark.sql.session.timeZone": "UTC",
    "spark.jars": sys.argv[2]})
rows = 40_000
data = f"{root}/data"
(spark.range(rows).selectExpr("id", f"(id * 7919) % {rows} * 3 AS k").repartition(2)
    .write.option("parquet.bloom.filter.enabled#k", "true").option("parquet.block.size", 16384).parquet(data))
spark.sql(f"CREATE EXTERNAL TABLE hive_pq (id BIGINT, k BIGINT) STORED AS PARQUET LOCATION '{data}'")
# Spark's Parquet writer (the insert is converted too) takes its filter settings from the session.
spark.conf.set("parquet.bloom.filter.enabled#k", "true")
spark.conf.set("parquet.block.size", "16384")
spark.conf.set("hive.exec.dynamic.partition.mode", "nonstrict")
spark.sql("CREATE TABLE hive_managed (id BIGINT, k BIGINT) STORED AS PARQUET")
spark.sql("INSERT INTO hive_managed SELECT * FROM hive_pq")
spark.sql("CREATE TABLE hive_part (id BIGINT, k BIGINT) PARTITIONED BY (p INT) STORED AS PARQUET")
spark.sql("INSERT INTO hive_part PARTITION (p) SELECT id, k, CAST(id % 3 AS INT) AS p FROM hive_pq")
for k in ("parquet.bloom.filter.enabled#k", "parquet.block.size"):
    spark.conf.unset(k)

PUSHDOWN_OFF = {"spark.sql.parquet.filterPushdown": "false"}

def run(table, where, confs):
    for k, v in confs.items():
        spark.conf.set(k, v)
    try:
        df = spark.sql(f"SELECT id, k FROM {table} WHERE {where}")
        got = sorted(tuple(r) for r in df.collect())
        plan = df._jdf.queryExecution().executedPlan().toString()
        return {"rows": got, "ours": "BloomParquetScan" in plan, "hive_serde": "Scan hive" in plan,
                "metrics": bp.scan_metrics(df)}
    finally:
        for k in confs:
            spark.conf.unset(k)

out = {}
hit = (1234 * 7919) % rows * 3
for table in ("hive_pq", "hive_managed", "hive_part"):
    for name, where in (("miss", "k = 1"), ("hit", f"k = {hit}"), ("in", f"k IN (1, 4, {hit}, 7)")):
        out[f"{table} {name} opt-in"] = run(table, where, {"spark.bloomparquet.parquet.enabled": "true"})
        out[f"{table} {name} default"] = run(table, where, {})
        out[f"{table} {name} serde"] = run(table, where, {"spark.bloomparquet.parquet.enabled": "true",
                                                        "spark.sql.hive.convertMetastoreParquet": "false"})
        out[f"{table} {name} oracle"] = run(table, where, PUSHDOWN_OFF)
print("RESULT " + json.dumps(out))
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("hive")
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(root), str(TEST_JAR)], capture_output=True, text=True, cwd=root, timeout=600
    )
    line = next((x for x in run.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert run.returncode == 0 and line, run.stderr[-4000:]
    return json.loads(line[len("RESULT ") :])


@pytest.mark.parametrize("table", ["hive_pq", "hive_managed", "hive_part"])
@pytest.mark.parametrize("query", ["miss", "hit", "in"])
def test_converted_hive_parquet_table_prunes_when_opted_in(results: dict, table: str, query: str) -> None:
    oracle = results[f"{table} {query} oracle"]["rows"]
    assert len(oracle) == (0 if query == "miss" else 1)
    for variant in ("opt-in", "default", "serde"):
        assert results[f"{table} {query} {variant}"]["rows"] == oracle, variant
    ours = results[f"{table} {query} opt-in"]
    assert ours["ours"], "the opted-in converted Hive table should plan through the V2 scan"
    m = ours["metrics"]
    assert m["bloomRowGroupsPrunedByBloom"] > 0, m
    if query == "miss":
        assert m["bloomTasksPlanned"] == 0 and m["tasks"] == 0, m
    # Without the opt-in Spark's own route; with Spark's conversion off, Hive's SerDe scan: both untouched.
    assert not results[f"{table} {query} default"]["ours"]
    serde = results[f"{table} {query} serde"]
    assert serde["hive_serde"] and not serde["ours"]
