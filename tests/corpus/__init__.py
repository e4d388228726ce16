"""A generated corpus of real-world Parquet file classes (after apache/parquet-testing's data/):
wrong column indexes, checksummed v1/v2 pages, odd encodings, nulls-only chunks, legacy lists,
INT96, decimals in every physical type, files from pyarrow, DuckDB, Spark and raw parquet-java,
each with bloom filters on its probed columns ``k`` and ``s``. Small (1,200 rows a file).

``write_all(directory)`` writes every class into its own subdirectory and returns
``{class name: directory}``; classes that need Spark's or parquet-java's writer are written
only when a SparkSession is given."""

from __future__ import annotations

from pathlib import Path

from . import duckdb_classes, pyarrow_classes, spark_classes
from .rows import KEY_PREDICATES
from .spec import FileClass

CLASSES: list[FileClass] = [*pyarrow_classes.CLASSES, *duckdb_classes.CLASSES, *spark_classes.classes()]
BY_NAME = {c.name: c for c in CLASSES}


def write_all(directory: Path, spark: object = None, readable_only: bool = False) -> dict[str, Path]:
    """Every class (those Spark reads, if ``readable_only``) written under ``directory``."""
    return {
        c.name: write_class(c, directory, spark)
        for c in CLASSES
        if not (c.needs_spark and spark is None) and not (readable_only and not c.spark_reads)
    }


def write_class(c: FileClass, directory: Path, spark: object = None) -> Path:
    """Writes class ``c`` into ``directory/<its name>`` and returns that path."""
    if c.needs_spark and spark is None:
        raise ValueError(f"{c.name}: written by Spark's or parquet-java's writer, give a SparkSession")
    target = Path(directory) / c.name
    target.mkdir(parents=True)
    c.write(target, spark)
    return target


__all__ = ["BY_NAME", "CLASSES", "KEY_PREDICATES", "FileClass", "write_all", "write_class"]
