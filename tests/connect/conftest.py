"""A Spark Connect session: PySpark's local Connect server, started with the
bloomparquet jar and session extension by ``bloomparquet.configure``. These
tests run in their own pytest process (bin/test): one Python process holds
either a classic SparkContext or a local Connect server, not both."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from ..spark_conf import SPARK3


@pytest.fixture(scope="session")
def connect() -> Iterator[object]:
    import pyspark
    from pyspark.sql import SparkSession

    import bloomparquet as bp

    # The client repeats the server's start-up settings as session settings, which Spark refuses, noisily.
    warnings.filterwarnings("ignore", message="Failed to set spark\\.")
    conf = {}
    if SPARK3:
        # Spark 3.5's pyspark does not ship the Connect server: it comes as a package, as Spark's docs say.
        conf["spark.jars.packages"] = f"org.apache.spark:spark-connect_2.12:{pyspark.__version__}"
    builder = bp.configure(SparkSession.builder.remote("local[2]"), **conf).config("spark.sql.session.timeZone", "UTC")
    session = builder.getOrCreate()
    yield session
    session.stop()
