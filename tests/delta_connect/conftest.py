"""A Spark Connect session with Delta Lake: PySpark's local Connect server started with Delta's
package and extension and bloomparquet's (``bloomparquet.configure``). In a pytest process of its
own (bin/test), as one Python process holds either a classic SparkContext or a Connect server."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from ..delta.conftest import DELTA_EXTENSION, delta_package


@pytest.fixture(scope="session")
def connect(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    import pyspark
    from pyspark.sql import SparkSession

    import bloomparquet as bp

    package = delta_package(pyspark.__version__)
    if package is None:
        raise RuntimeError(f"Delta Lake has no release for Spark {pyspark.__version__}")
    warnings.filterwarnings("ignore", message="Failed to set spark\\.")
    conf = {
        "spark.jars.packages": package,
        "spark.sql.extensions": DELTA_EXTENSION,
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.sql.shuffle.partitions": "4",
        "spark.databricks.delta.snapshotPartitions": "2",
        "spark.sql.warehouse.dir": str(tmp_path_factory.mktemp("warehouse")),
    }
    builder = bp.configure(SparkSession.builder.remote("local[2]"), **conf).config("spark.sql.session.timeZone", "UTC")
    session = builder.getOrCreate()
    yield session
    session.stop()
