"""Bloom filters on Apache Iceberg tables: Iceberg's writer writes them, sized by bloomparquet's model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from . import _session

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

# Iceberg's default row group size (write.parquet.row-group-size-bytes).
DEFAULT_ROW_GROUP_BYTES = 128 << 20


def iceberg_filter_properties(
    spark: SparkSession,
    table: str,
    columns: Sequence[str],
    fpp: float = 0.01,
    ndv: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """Iceberg table properties that make Iceberg's writer write right-sized bloom filters on ``columns``.

    Iceberg writes filters only where its table properties ask, sized for a count of distinct values
    per row group given by hand (``write.parquet.bloom-filter-ndv.column.<col>``) or for 1 MiB. These
    properties size each filter by bloomparquet's model from the table's data instead: for the count
    in ``ndv`` where given, else for the distinct values a row group of the table may hold (no more
    than its rows, from the table's files, nor than a sample of the table counts); with Iceberg 1.12
    on, parquet-java's adaptive filter also counts them while writing and writes a smaller filter where
    a row group holds fewer. Set them with ``ALTER TABLE ... SET TBLPROPERTIES``; every later write of
    the table (Spark, any engine on Iceberg's Java writer) writes the filters.

    Parameters
    ----------
    spark : SparkSession
        A classic session with Iceberg's Spark runtime and a catalog holding ``table``.
    table : str
        The table, as Spark SQL names it (``catalog.db.table``).
    columns : sequence of str
        The columns to write filters for (struct fields dotted: ``"st.a"``).
    fpp : float, default 0.01
        The false-positive rate each filter is sized for.
    ndv : mapping of str to int, optional
        Distinct values per row group of some columns, where known.

    Returns
    -------
    dict of str to str
        The table properties to set.

    Examples
    --------
    >>> props = bp.iceberg_filter_properties(spark, "lake.shop.orders", ["order_id", "store"])
    >>> listed = ", ".join(f"'{k}' = '{v}'" for k, v in props.items())
    >>> spark.sql(f"ALTER TABLE lake.shop.orders SET TBLPROPERTIES ({listed})")
    """
    from pyspark.sql import functions as F

    rows_per_row_group = _rows_per_row_group(spark, table)
    # Distinct values a row group may hold: no more than its rows, nor than the table holds (counted on a
    # sample of twice a row group's rows, at least a million: a sample can only count fewer than the table).
    sample = spark.table(table).limit(max(1_000_000, 2 * rows_per_row_group))
    counted = sample.select(*[F.approx_count_distinct(c).alias(f"_{i}") for i, c in enumerate(columns)]).first()
    given = dict(ndv or {})
    for i, c in enumerate(columns):
        if c not in given and counted is not None and counted[i]:
            given[c] = min(rows_per_row_group, int(counted[i] * 1.05) + 1)
    jvm = _session.jvm(spark)
    # The Iceberg this session writes with: its writer has adaptive filters from 1.12 on.
    adaptive = _adaptive_filters(str(jvm.org.apache.iceberg.IcebergBuild.version()))
    mapping = jvm.io.bloomparquet.iceberg.IcebergFilterProperties.forPython(
        list(columns), float(fpp), [int(given.get(c, 0)) for c in columns], rows_per_row_group, adaptive
    )
    return {str(k): str(v) for k, v in dict(mapping).items()}


def _rows_per_row_group(spark: SparkSession, table: str) -> int:
    """The rows of a row group of ``table``: as its current files hold them (their records over their row
    groups, which Iceberg lists as split offsets), else its row group size over 8 bytes a row."""
    files = spark.sql(f"SELECT record_count, split_offsets FROM {table}.files").collect()
    records = int(sum(r.record_count for r in files))
    groups = sum(len(r.split_offsets or [0]) for r in files)
    if records and groups:
        return max(1, records // groups)
    properties = {r[0]: r[1] for r in spark.sql(f"SHOW TBLPROPERTIES {table}").collect()}
    return max(1, int(properties.get("write.parquet.row-group-size-bytes", DEFAULT_ROW_GROUP_BYTES)) // 8)


def _adaptive_filters(iceberg_release: str) -> bool:
    """Whether an Iceberg release's writer has adaptive bloom filters (1.12 on)."""
    try:
        major, minor = (int(p) for p in iceberg_release.split(".")[:2])
    except ValueError:
        return True
    return (major, minor) >= (1, 12)
