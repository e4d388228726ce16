"""Filters Iceberg's writer writes, sized by bloomparquet's model (``bp.iceberg_filter_properties``):
set as table properties, every later write of the table carries filters no larger than a row group's
values need, and the reads prune with them."""

from __future__ import annotations

import pytest

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters

from .test_iceberg_reads import both

pytestmark = pytest.mark.spark


def _filter_bytes(spark, table: str) -> list[int]:
    paths = [r[0] for r in spark.sql(f"SELECT file_path FROM {table}.files").collect()]
    filters = [read_bloom_filters(p.removeprefix("file:")) for p in paths]
    return [f.num_bytes for found in filters for (_, column), f in found.items() if column == "k"]


def test_filters_sized_by_the_model_prune_and_stay_small(spark) -> None:
    t = "lake.db.sized"
    spark.sql(f"DROP TABLE IF EXISTS {t}")
    spark.sql(f"CREATE TABLE {t} (k BIGINT, v STRING) USING iceberg")
    spark.range(0, 20000).selectExpr("id * 2 AS k", "'x' AS v").coalesce(1).writeTo(t).append()
    props = bp.iceberg_filter_properties(spark, t, ["k"], fpp=0.01)
    assert props["write.parquet.bloom-filter-enabled.column.k"] == "true", props
    listed = ", ".join(f"'{k}' = '{v}'" for k, v in props.items())
    spark.sql(f"ALTER TABLE {t} SET TBLPROPERTIES ({listed})")
    spark.range(20000, 40000).selectExpr("id * 2 AS k", "'x' AS v").coalesce(1).writeTo(t).append()
    sizes = _filter_bytes(spark, t)
    # The first file was written before the properties: no filter. The second's holds its 20,000 keys at
    # 1 %: about 24 KiB by the model, a power of two in parquet-java, never Iceberg's 1 MiB default.
    assert len(sizes) == 1 and 16 << 10 <= sizes[0] <= 64 << 10, sizes
    got, ours, alone = both(spark, lambda: spark.table(t).where("k = 40001"))
    assert got == [] and ours["tasks"] < alone["tasks"], (ours, alone)
    # A known count per row group sizes the filter for it, not for the rows.
    props = bp.iceberg_filter_properties(spark, t, ["k", "v"], ndv={"v": 1})
    assert props["write.parquet.bloom-filter-ndv.column.v"] == "1", props
