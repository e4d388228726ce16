"""Iceberg tables for the tests: written by Spark with Iceberg's writer, bloom filters on through Iceberg's
own table properties, small row groups so a file holds several, one file per append."""

from __future__ import annotations

from collections.abc import Sequence

# Keys are multiples of 3 (so k % 3 != 0 is absent everywhere); each append holds one range of them.
ROWS_PER_FILE = 3000
FILES = 6


def bloom_properties(columns: Sequence[str], format_version: int = 2) -> str:
    """TBLPROPERTIES turning Iceberg's writer's bloom filters on for ``columns`` (none: no filter), small row groups."""
    props = {f"write.parquet.bloom-filter-enabled.column.{c}": "true" for c in columns}
    props |= {"write.parquet.bloom-filter-max-bytes": "65536", "write.parquet.row-group-size-bytes": "16384"}
    props |= {"format-version": str(format_version)}
    if format_version >= 2:  # delete files (v2) and deletion vectors (v3); v1 rewrites the files
        props |= {f"write.{op}.mode": "merge-on-read" for op in ("delete", "update", "merge")}
    return ", ".join(f"'{k}' = '{v}'" for k, v in props.items())


def create_events(spark, name: str, format_version: int = 2, filtered: Sequence[str] = ("k", "s", "st.a")) -> None:
    """``name`` (k BIGINT, s STRING, st STRUCT<a: INT, b: STRING>) with filters on ``filtered``, in
    ``FILES`` files of ``ROWS_PER_FILE`` rows: file i holds k in [i * 3 * ROWS, (i + 1) * 3 * ROWS), step 3,
    s = 'u' || k, st = (k % 7919, 'b' || k)."""
    spark.sql(f"DROP TABLE IF EXISTS {name}")
    spark.sql(
        f"CREATE TABLE {name} (k BIGINT, s STRING, st STRUCT<a: INT, b: STRING>) USING iceberg "
        f"TBLPROPERTIES ({bloom_properties(filtered, format_version)})"
    )
    for i in range(FILES):
        append_keys(spark, name, i * 3 * ROWS_PER_FILE, (i + 1) * 3 * ROWS_PER_FILE)


def append_keys(spark, name: str, start: int, end: int) -> None:
    """Appends one file of the keys in [start, end) that are multiples of 3."""
    (
        spark.range(start, end, 3)
        .selectExpr(
            "id AS k", "concat('u', id) AS s", "named_struct('a', CAST(id % 7919 AS INT), 'b', concat('b', id)) AS st"
        )
        .coalesce(1)
        .writeTo(name)
        .append()
    )
