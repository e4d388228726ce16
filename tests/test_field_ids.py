"""Spark's field-id matching (``spark.sql.parquet.fieldId.read.enabled``, which Delta Lake's extension
turns on for every session): where the read schema carries Parquet field ids, Spark matches columns
by id and our probes (by name) must stay out; where it carries none, Spark matches by name and
pruning goes on. Differential against Spark's ``parquet`` with its pushdown off."""

from __future__ import annotations

from pathlib import Path

import pytest

import bloomparquet as bp

from .spark_conf import PUSHDOWN_OFF, rows, spark_conf

pytestmark = pytest.mark.spark

ON = {"spark.sql.parquet.fieldId.read.enabled": "true"}


def _schema(names_by_id: dict[int, str]):
    from pyspark.sql.types import LongType, StructField, StructType

    return StructType([StructField(n, LongType(), metadata={"parquet.field.id": i}) for i, n in names_by_id.items()])


@pytest.fixture(scope="module")
def with_ids(spark, tmp_path_factory) -> Path:
    """Column `k` (field id 1: even keys) and `v` (field id 2: odd values), bloom filters on both."""
    path = tmp_path_factory.mktemp("ids") / "t"
    data = [(2 * i, 2 * i + 1) for i in range(4000)]
    df = spark.createDataFrame(data, _schema({1: "k", 2: "v"})).coalesce(2)
    df.write.format("bloomparquet").option("bloom.columns", "k,v").option("parquet.block.size", 8192).save(str(path))
    return path


def test_files_without_ids_still_prune(spark, tmp_path: Path) -> None:
    path = tmp_path / "no_ids"
    spark.range(0, 8000, 2).coalesce(1).write.format("bloomparquet").option("bloom.columns", "id").save(str(path))
    with spark_conf(spark, ON):
        df = bp.read_bloom(spark, str(path)).where("id = 3")
        assert df.collect() == []
        m = bp.scan_metrics(df)
    assert m["bloomFilesPruned"] == m["bloomFilesTotal"] == 1 and m["tasks"] == 0, m


def test_ids_that_swap_names_are_never_probed_by_name(spark, with_ids: Path) -> None:
    # Read by id: Spark's `k` is the file's `v` (odd values) and its `v` the file's `k`.
    swapped = _schema({2: "k", 1: "v"})
    answers = {}
    for where in ("k = 3", "v = 4", "k IN (1, 5, 8)", "v = 3"):
        with spark_conf(spark, {**ON, **PUSHDOWN_OFF}):
            expected = rows(spark.read.schema(swapped).parquet(str(with_ids)).where(where))
        with spark_conf(spark, ON):
            df = spark.read.format("bloomparquet").schema(swapped).load(str(with_ids)).where(where)
            got = rows(df)
            m = bp.scan_metrics(df)
        assert got == expected, where
        assert m.get("bloomRowGroupsPrunedByBloom", 0) == 0, (where, m)
        answers[where] = got
    # Spark did read by id: the file's `v` = 3 sits next to its `k` = 2.
    assert answers["k = 3"] == [(3, 2)] and answers["v = 3"] == [], answers
