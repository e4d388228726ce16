"""A classic SparkSession with Apache Iceberg and bloomparquet, as an Iceberg user starts one: Iceberg's
Spark runtime through ``spark.jars.packages`` (the coordinate the jar was built against,
``bloomparquet.iceberg_package()``), its session extension, and two catalogs the tests start
themselves: ``lake``, a Hadoop catalog in a temporary folder, and ``jlake``, a JDBC catalog on a
SQLite database (its driver through the same packages). These tests run in a pytest process of their
own (bin/test, ``BLOOMPARQUET_ICEBERG=1``) on the newest Spark minor Iceberg publishes a runtime for."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pyspark
import pytest

from ..spark_conf import CLUSTER_EXECUTORS, packages_on_executors

ICEBERG_EXTENSION = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"
SQLITE_JDBC = "org.xerial:sqlite-jdbc:3.54.1.0"
CATALOG = "org.apache.iceberg.spark.SparkCatalog"


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    import bloomparquet as bp

    package = bp.iceberg_package()
    if package is None:
        raise RuntimeError(
            f"Iceberg has no Spark runtime for Spark {pyspark.__version__}: run tests/iceberg on another minor"
        )
    warehouse = tmp_path_factory.mktemp("iceberg")
    conf = {
        "spark.jars.packages": f"{package},{SQLITE_JDBC}",
        "spark.sql.extensions": ICEBERG_EXTENSION,
        "spark.sql.catalog.lake": CATALOG,
        "spark.sql.catalog.lake.type": "hadoop",
        "spark.sql.catalog.lake.warehouse": str(warehouse / "hadoop"),
        "spark.sql.catalog.jlake": CATALOG,
        "spark.sql.catalog.jlake.type": "jdbc",
        "spark.sql.catalog.jlake.uri": f"jdbc:sqlite:{warehouse / 'catalog.db'}",
        "spark.sql.catalog.jlake.jdbc.schema-version": "V1",
        "spark.sql.catalog.jlake.warehouse": str(warehouse / "jdbc"),
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.shuffle.partitions": "4",
        "spark.ui.enabled": "false",
    }
    master = os.environ.get("BLOOMPARQUET_MASTER", "local[2]")
    if master.startswith("local-cluster"):
        conf.update(CLUSTER_EXECUTORS)
        conf.update(packages_on_executors([package, SQLITE_JDBC]))
    session = bp.session(master=master, **conf)
    yield session
    session.stop()
