"""A classic SparkSession with Delta Lake and bloomparquet, as a Delta user starts one: Delta's
package through ``spark.jars.packages`` (offline from the local Maven/Ivy cache once fetched),
its session extension and catalog, and bloomparquet's extension. These tests run in a pytest
process of their own (bin/test, ``BLOOMPARQUET_DELTA=1``) on the Spark minors Delta Lake has a
release for: a process holds one SparkContext, and the default Spark (4.3) has none.

``BLOOMPARQUET_DELTA_ORDER=bloomparquet-first`` lists bloomparquet's extension before Delta's
(bin/test runs one minor each way): pruning must not depend on the order."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pyspark
import pytest

from ..spark_conf import CLUSTER_EXECUTORS, packages_on_executors

PROPERTIES = Path(__file__).resolve().parents[2] / "project" / "spark-versions.properties"
DELTA_EXTENSION = "io.delta.sql.DeltaSparkSessionExtension"


def delta_package(spark_version: str) -> str | None:
    """The Delta Lake artifact for a Spark release (project/spark-versions.properties), None if it has none."""
    minor = ".".join(spark_version.split(".")[:2])
    found = re.search(rf"^delta\.{re.escape(minor)}=(\S+)$", PROPERTIES.read_text(), re.M)
    if found is None:
        return None
    artifact = "delta-spark_2.12" if minor.startswith("3.") else f"delta-spark_{minor}_2.13"
    return f"io.delta:{artifact}:{found.group(1)}"


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    import bloomparquet as bp
    from bloomparquet._connect import EXTENSION

    package = delta_package(pyspark.__version__)
    if package is None:
        raise RuntimeError(
            f"Delta Lake has no release for Spark {pyspark.__version__}: run tests/delta on another minor"
        )
    ours_first = os.environ.get("BLOOMPARQUET_DELTA_ORDER") == "bloomparquet-first"
    conf = {
        "spark.jars.packages": package,
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.sql.session.timeZone": "UTC",
        "spark.ui.enabled": "false",
        # Small tables on 2 cores: Delta's DML and log replay shuffle into few partitions, not 200 and 50.
        "spark.sql.shuffle.partitions": "4",
        "spark.databricks.delta.snapshotPartitions": "2",
        "spark.sql.warehouse.dir": str(tmp_path_factory.mktemp("warehouse")),
        # bloomparquet.session appends its own extension to this list: first or last as asked.
        "spark.sql.extensions": f"{EXTENSION},{DELTA_EXTENSION}" if ours_first else DELTA_EXTENSION,
    }
    # BLOOMPARQUET_MASTER=local-cluster[2,1,1024]: executors in JVMs of their own (our row-group
    # selections serialized with the job).
    master = os.environ.get("BLOOMPARQUET_MASTER", "local[2]")
    if master.startswith("local-cluster"):
        conf.update(CLUSTER_EXECUTORS)
        # Delta's UDFs fail to deserialize on executors that got Delta through spark.jars.packages alone.
        _, _, version = package.split(":")
        conf.update(packages_on_executors([package, f"io.delta:delta-storage:{version}"]))
    session = bp.session(master=master, **conf)
    yield session
    session.stop()
