"""Reading with bloom-filter pruning: ``read_bloom`` and its typed options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from . import _options

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

FORMAT = "bloomparquet"

PruningMode = Literal["plan", "task"]
SparkPushdown = Literal["safe", "all", "none"]


# read_options' arguments and the options they set.
_ARGS = {
    "enabled": "bloom.enabled",
    "mode": "bloom.mode",
    "cache": "bloom.cache",
    "planning_parallelism": "bloom.planningParallelism",
    "early_stop": "bloom.earlyStop",
    "spark_pushdown": "bloom.sparkPushdown",
}


def read_options(
    *,
    enabled: bool | None = None,
    mode: PruningMode | None = None,
    cache: bool | None = None,
    planning_parallelism: int | None = None,
    early_stop: bool | None = None,
    spark_pushdown: SparkPushdown | None = None,
    cache_mb: int | None = None,
) -> dict[str, str]:
    """The ``bloomparquet`` read options as Spark option strings; unset ones are omitted.

    Each argument sets one option (docs/user-guide.md, "Read options"), checked
    here as the JVM checks it: ``ValueError`` naming the option and what it
    accepts. ``cache_mb`` sets the deprecated ``bloom.cacheMb`` (0 is
    ``cache=False``; the cache size is the Spark conf ``spark.bloomparquet.cache.maxMb``).

    Args:
"""
    given = {_ARGS[arg]: value for arg, value in locals().items() if arg in _ARGS and value is not None}
    if cache_mb is not None:
        given["bloom.cacheMb"] = cache_mb
    return _options.checked(given, scopes=("read",))


read_options.__doc__ = (read_options.__doc__ or "") + _options.describe(_ARGS)


def read_bloom(
    spark: SparkSession,
    path: str | Sequence[str],
    *,
    bloom_enabled: bool | None = None,
    bloom_mode: PruningMode | None = None,
    bloom_cache: bool | None = None,
    bloom_planning_parallelism: int | None = None,
    bloom_early_stop: bool | None = None,
    bloom_spark_pushdown: SparkPushdown | None = None,
    bloom_cache_mb: int | None = None,
    **options: object,
) -> DataFrame:
    """Read Parquet at ``path`` with bloom-filter pruning; same as
    ``spark.read.format("bloomparquet").options(...).load(path)``.

    ``bloom_*`` arguments are those of :func:`read_options`; other keyword
    arguments are passed as Spark/Parquet read options (e.g. ``mergeSchema="true"``),
    ``bloom.*`` ones checked too.
    """
    opts = read_options(
        enabled=bloom_enabled,
        mode=bloom_mode,
        cache=bloom_cache,
        planning_parallelism=bloom_planning_parallelism,
        early_stop=bloom_early_stop,
        spark_pushdown=bloom_spark_pushdown,
        cache_mb=bloom_cache_mb,
    )
    reader = spark.read.format(FORMAT).options(**opts).options(**_options.checked(options))
    return reader.load(path if isinstance(path, str) else list(path))


def scan_metrics(df: DataFrame) -> dict[str, int]:
    """Metrics of the file scans of ``df``'s last execution, summed over scans:
    the ``bloom*`` pruning counters (files/row groups total and pruned, filter
    bytes read, broken filters, pruning time), Spark's scan metrics, and
    ``tasks`` (input partitions planned). Run an action on ``df`` first.

    On Spark Connect the figures come from the execution's own metrics
    (``df.executionInfo``); ``tasks`` is then known for ``bloomparquet`` scans only.
    """
    from ._connect import connect_scan_metrics, is_connect
    from ._session import jvm_bridge

    if is_connect(df):
        return connect_scan_metrics(df)

    bridge = jvm_bridge(df.sparkSession)
    return {str(k): int(v) for k, v in dict(bridge.scanMetrics(df._jdf)).items()}
