"""No wasted work where pruning is impossible: a big IN list against 1 % filters
stops reading filters once the first file's show they can't prune (the row
groups left are kept, never dropped), while point lookups, small IN lists and
lists the filters can still prune probe as before. Rows equal Spark's `parquet`
without pushdown every time."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from pyspark.sql import functions as F

import bloomparquet as bp

from .spark_conf import PUSHDOWN_OFF, spark_conf
from .write_format import WRITE_FORMAT

pytestmark = pytest.mark.spark

FILES, ROWS_PER_FILE = 4, 12_000


def _key(i: int) -> int:
    """The key of row `i`: unsorted (statistics can't prune), even (odd keys are absent)."""
    return (i * 2654435761) % 1_000_000_007 * 2


@pytest.fixture(scope="module")
def lake(spark, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("payoff") / "t"
    (
        spark.range(FILES * ROWS_PER_FILE)
        .repartition(FILES, "id")
        .select((F.col("id") * 2654435761 % 1_000_000_007 * 2).alias("k"), F.col("id").alias("v"))
        .write.format(WRITE_FORMAT)
        .option("parquet.block.size", 16 * 1024)
        .option("bloom.columns", "k")
        .option("bloom.fpp", "0.01")
        .save(str(out))
    )
    files = sorted(out.glob("*.parquet"))
    assert len(files) == FILES
    assert all(pq.ParquetFile(f).metadata.num_row_groups >= 6 for f in files)
    return out


def _absent(n: int) -> list[int]:
    return [2 * i + 1 for i in range(5 * 10**8, 5 * 10**8 + n)]  # odd, mid-range: statistics keep them


def _present(n: int) -> list[int]:
    return [_key(i) for i in range(0, FILES * ROWS_PER_FILE, FILES * ROWS_PER_FILE // max(n, 1))][:n]


def _run(spark, path: Path, values: list[int], **options: object) -> tuple[list, dict[str, int]]:
    """Rows of `k IN values` through bloomparquet (without its cache unless asked) and its metrics,
    checked against Spark's `parquet` with pushdown off. Filters are read whole: their bytes tell the
    files apart (`per_file`), where blocks would depend on the values."""
    options = {"bloom.cache": False, "bloom.filterReads": "whole", **options}
    df = bp.read_bloom(spark, str(path), **options).where(F.col("k").isin(values))
    rows = sorted(df.collect())
    with spark_conf(spark, PUSHDOWN_OFF):
        assert rows == sorted(spark.read.parquet(str(path)).where(F.col("k").isin(values)).collect())
    return rows, bp.scan_metrics(df)


@pytest.fixture(scope="module")
def per_file(spark, lake: Path) -> dict[int, int]:
    """Each file's filter bytes -> its row groups, from reading it alone with the early stop off."""
    out = {}
    for f in sorted(lake.glob("*.parquet")):
        _, m = _run(spark, f, _absent(50), **{"bloom.earlyStop": False})
        out[m["bloomFilterBytesRead"]] = pq.ParquetFile(f).metadata.num_row_groups
    assert len(out) == FILES, "files' filter bytes must tell them apart"
    return out


@pytest.mark.parametrize("parallelism", [1, 16])
@pytest.mark.parametrize("present", [0, 3])
def test_big_in_list_reads_one_files_filters_then_stops(
    spark, lake: Path, per_file: dict[int, int], parallelism: int, present: int
) -> None:
    # 3,000 values at 1 %: a row group holding none survives with chance 1-(0.99)^3000 = 1 - 1e-13.
    rows, m = _run(spark, lake, _absent(3000) + _present(present), **{"bloom.planningParallelism": parallelism})
    assert len(rows) == present
    total = m["bloomRowGroupsTotal"]
    assert total == sum(per_file.values())
    # Only the pilot file's filters were read; every other row group was kept unprobed.
    assert m["bloomFilterBytesRead"] in per_file, (m, per_file)
    assert m["bloomRowGroupsUnprobed"] == total - per_file[m["bloomFilterBytesRead"]]
    assert m["bloomRowGroupsPrunedByBloom"] == 0


def test_switched_off_it_reads_every_filter(spark, lake: Path, per_file: dict[int, int]) -> None:
    _, m = _run(spark, lake, _absent(3000), **{"bloom.earlyStop": False})
    assert m["bloomRowGroupsUnprobed"] == 0
    assert m["bloomFilterBytesRead"] == sum(per_file)


def test_cached_filters_are_not_probed_either(spark, lake: Path) -> None:
    values = _absent(3000)
    _run(spark, lake, values, **{"bloom.cache": True, "bloom.earlyStop": False})  # fills the cache
    _, m = _run(spark, lake, values, **{"bloom.cache": True})
    assert m["bloomFilterBytesRead"] == 0 and m["bloomFootersRead"] == 0
    assert 0 < m["bloomRowGroupsUnprobed"] < m["bloomRowGroupsTotal"]


@pytest.mark.parametrize("values", [_absent(1), _absent(5), _absent(20) + _present(2)], ids=["point", "in5", "in22"])
def test_where_filters_can_prune_it_never_stops(spark, lake: Path, per_file: dict[int, int], values: list[int]) -> None:
    # 20 values at 1 %: 82 % of the row groups holding none are pruned (1 % filters, 1-(0.99)^20).
    rows, m = _run(spark, lake, values)
    assert len(rows) == sum(v % 2 == 0 for v in values)
    assert m["bloomRowGroupsUnprobed"] == 0
    assert m["bloomFilterBytesRead"] == sum(per_file)
    assert m["bloomRowGroupsPrunedByBloom"] >= 0.6 * (m["bloomRowGroupsTotal"] - len(rows))


def test_a_joins_big_key_set_plans_no_filter(spark, lake: Path, tmp_path: Path) -> None:
    """The keys of a join (Spark's dynamic pruning: a selective key side) are 3,002, about a thousand
    by Spark's estimate from the key file's size: 1 % filters keep every row group holding none of
    them (0.99^1000), so no runtime filter is planned and the fact is read as Spark's own scan
    reads it, without reading any filter."""
    keys = _absent(3000) + _present(2)
    dim = tmp_path / "dim"
    rows = [(k, 1) for k in keys] + [(2 * i + 1, 7) for i in range(80)]
    spark.createDataFrame(rows, "k long, g int").coalesce(1).write.parquet(str(dim))

    def joined(fact):
        return fact.join(spark.read.parquet(str(dim)).where("g <> 7"), "k").select("k", "v")

    q = joined(bp.read_bloom(spark, str(lake), **{"bloom.cache": False}))
    got = sorted(q.collect())
    assert "dynamicpruning" not in q._jdf.queryExecution().executedPlan().toString().lower()
    with spark_conf(spark, PUSHDOWN_OFF):
        assert got == sorted(joined(spark.read.parquet(str(lake))).collect())
    assert len(got) == 2
    assert bp.scan_metrics(q).get("bloomFilterBytesRead", 0) == 0
