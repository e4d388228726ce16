"""Reading with bloom-filter pruning: ``read_bloom``, and ``scan_metrics`` to see what it pruned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import _options

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

FORMAT = "bloomparquet"


def read_bloom(spark: SparkSession, path: str | Sequence[str], **options: object) -> DataFrame:
    """Read Parquet with bloom-filter pruning.

    The same as ``spark.read.format("bloomparquet").options(**options).load(path)``,
    with every ``bloom.*`` option checked first, as the JVM checks it, so a bad one
    fails here before Spark runs.

    Parameters
    ----------
    spark : SparkSession
        A classic or Spark Connect session with bloomparquet loaded
        (:func:`session`, :func:`configure`).
    path : str or sequence of str
        Parquet files or directories (partitioned directories too).
    **options
        Read options, as ``DataFrameReader.options`` takes them: the ``bloom.*``
        ones (docs/reading.md, "Read options"; keys are case-insensitive) and
        Spark's Parquet ones (``mergeSchema``, ...). Values may be ``str``,
        ``bool``, ``int`` or ``float``; ``True`` is passed as ``"true"``.

    Returns
    -------
    DataFrame
        The files' rows; filters on it prune row groups and files.

    Raises
    ------
    ValueError
        A ``bloom.*`` option that is unknown (naming the closest known one) or
        has a bad value (naming what it accepts).

    Examples
    --------
    >>> df = bp.read_bloom(spark, "/lake/events", **{"bloom.mode": "task"})
    >>> df.where("user_id = 'u-9f3a'").count()
    """
    checked = _options.checked(options)  # before Spark is asked anything
    return spark.read.format(FORMAT).options(**checked).load(path if isinstance(path, str) else list(path))


def scan_metrics(df: DataFrame) -> dict[str, int]:
    """What the file scans of ``df``'s last execution read and pruned, summed over scans.

    In a classic session the scans of subqueries count too, each scan once: a
    stage the query and a subquery share counts once, wherever Spark placed it.

    On Spark Connect the figures come from the execution's own metrics
    (``df.executionInfo``); ``tasks`` is then known for ``bloomparquet`` scans only.
    Pruning done in a stage that adaptive execution ran and then dropped from the
    final plan (a join side that read nothing) counts in the ``bloom*`` counters
    of a classic session; Spark's own figures are those of the final plan and
    its subqueries. Spark Connect sends the final plan's metrics only: such a
    side's counts are missing there (the server's Spark UI shows them, in the
    stage that ran).

    Parameters
    ----------
    df : DataFrame
        A DataFrame on which an action (``collect``, ``count``, ...) has run.

    Returns
    -------
    dict of str to int
        The ``bloom*`` pruning counters (files and row groups total and pruned,
        filter bytes read, broken filters, pruning time), Spark's scan metrics,
        and ``tasks`` (input partitions planned).

    Raises
    ------
    RuntimeError
        On Spark Connect, when ``df`` has not run yet.
    NotImplementedError
        On a Spark 3.5 Connect client, which has no ``DataFrame.executionInfo``.

    Examples
    --------
    >>> q = bp.read_bloom(spark, "/lake/events").where("order_id = 7")
    >>> rows = q.collect()
    >>> pruned = bp.scan_metrics(q)["bloomRowGroupsPrunedByBloom"]
    """
    from ._connect import connect_scan_metrics, is_connect
    from ._session import java_map, jvm_bridge, jvm_dataframe

    if is_connect(df):
        return connect_scan_metrics(df)

    bridge = jvm_bridge(df.sparkSession)
    return {k: int(v) for k, v in java_map(bridge.scanMetrics(jvm_dataframe(df))).items()}
