"""A Spark Connect session with Apache Iceberg: PySpark's local Connect server started with Iceberg's
Spark runtime, its extension, a Hadoop catalog and bloomparquet's extension (``bloomparquet.configure``).
In a pytest process of its own (bin/test), as one Python process holds either a classic SparkContext
or a Connect server."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from ..iceberg.conftest import CATALOG, ICEBERG_EXTENSION


@pytest.fixture(scope="session")
def connect(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from pyspark.sql import SparkSession

    import bloomparquet as bp

    package = bp.iceberg_package()
    if package is None:
        raise RuntimeError("this Spark has no Iceberg support in bloomparquet")
    warnings.filterwarnings("ignore", message="Failed to set spark\\.")
    conf = {
        "spark.jars.packages": package,
        "spark.sql.extensions": ICEBERG_EXTENSION,
        "spark.sql.catalog.lake": CATALOG,
        "spark.sql.catalog.lake.type": "hadoop",
        "spark.sql.catalog.lake.warehouse": str(tmp_path_factory.mktemp("iceberg")),
        "spark.sql.shuffle.partitions": "4",
    }
    builder = bp.configure(SparkSession.builder.remote("local[2]"), **conf).config("spark.sql.session.timeZone", "UTC")
    session = builder.getOrCreate()
    yield session
    session.stop()
