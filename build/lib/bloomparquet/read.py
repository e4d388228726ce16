"""Reading with bloom-filter pruning: ``read_bloom`` and its typed options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

FORMAT = "bloomparquet"

PruningMode = Literal["plan", "task"]
SparkPushdown = Literal["safe", "all", "none"]


def read_options(
    *,
    enabled: bool | None = None,
    mode: PruningMode | None = None,
    cache_mb: int | None = None,
    planning_parallelism: int | None = None,
    spark_pushdown: SparkPushdown | None = None,
) -> dict[str, str]:
    """The ``bloomparquet`` read options as Spark option strings; unset ones are omitted.

    Args:
        enabled: prune row groups and files with bloom filters and statistics (default True).
        mode: ``"plan"`` prunes on the driver before any task starts (default);
            ``"task"`` prunes inside each task, for very large file counts.
        cache_mb: MiB of footers and filters kept across queries (default 256; 0 disables).
        planning_parallelism: files whose footers/filters are read at once while planning (default 16).
        spark_pushdown: which filters Spark's own Parquet pushdown also gets inside tasks:
            ``"safe"`` (default) all but those on FLOAT/DOUBLE columns, where
            parquet-java's bit equality misses ``-0.0 = 0.0``; ``"all"``; ``"none"``.

    Raises:
        ValueError: naming the option, for a value outside what it accepts.
    """
    out: dict[str, str] = {}
    if enabled is not None:
        if not isinstance(enabled, bool):
            raise ValueError(f"bloom.enabled must be True or False, got {enabled!r}")
        out["bloom.enabled"] = str(enabled).lower()
    if mode is not None:
        if mode not in ("plan", "task"):
            raise ValueError(f"bloom.mode must be 'plan' or 'task', got {mode!r}")
        out["bloom.mode"] = mode
    if cache_mb is not None:
        if isinstance(cache_mb, bool) or not isinstance(cache_mb, int) or not 0 <= cache_mb <= 1 << 20:
            raise ValueError(f"bloom.cacheMb must be an integer number of MiB from 0 to 1048576, got {cache_mb!r}")
        out["bloom.cacheMb"] = str(cache_mb)
    if planning_parallelism is not None:
        if isinstance(planning_parallelism, bool) or not isinstance(planning_parallelism, int) or not (
            1 <= planning_parallelism <= 1024
        ):
            raise ValueError(
                f"bloom.planningParallelism must be an integer from 1 to 1024, got {planning_parallelism!r}"
            )
        out["bloom.planningParallelism"] = str(planning_parallelism)
    if spark_pushdown is not None:
        if spark_pushdown not in ("safe", "all", "none"):
            raise ValueError(f"bloom.sparkPushdown must be 'safe', 'all' or 'none', got {spark_pushdown!r}")
        out["bloom.sparkPushdown"] = spark_pushdown
    return out


def read_bloom(
    spark: SparkSession,
    path: str | Sequence[str],
    *,
    bloom_enabled: bool | None = None,
    bloom_mode: PruningMode | None = None,
    bloom_cache_mb: int | None = None,
    bloom_planning_parallelism: int | None = None,
    bloom_spark_pushdown: SparkPushdown | None = None,
    **options: str,
) -> DataFrame:
    """Read Parquet at ``path`` with bloom-filter pruning; same as
    ``spark.read.format("bloomparquet").options(...).load(path)``.

    ``bloom_*`` arguments are described in :func:`read_options`; other keyword
    arguments are passed as Spark/Parquet read options (e.g. ``mergeSchema="true"``).
    """
    opts = read_options(
        enabled=bloom_enabled,
        mode=bloom_mode,
        cache_mb=bloom_cache_mb,
        planning_parallelism=bloom_planning_parallelism,
        spark_pushdown=bloom_spark_pushdown,
    )
    reader = spark.read.format(FORMAT).options(**opts).options(**{k: str(v) for k, v in options.items()})
    return reader.load(path if isinstance(path, str) else list(path))


def scan_metrics(df: DataFrame) -> dict[str, int]:
    """Metrics of the file scans of ``df``'s last execution, summed over scans:
    the ``bloom*`` pruning counters (files/row groups total and pruned, filter
    bytes read, broken filters, pruning time), Spark's scan metrics, and
    ``tasks`` (input partitions planned). Run an action on ``df`` first."""
    from ._session import jvm_bridge

    bridge = jvm_bridge(df.sparkSession)
    return {str(k): int(v) for k, v in dict(bridge.scanMetrics(df._jdf)).items()}
