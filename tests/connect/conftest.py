"""A Spark Connect session: PySpark's local Connect server, started with the
bloomparquet jar and session extension by ``bloomparquet.configure``. These
tests run in their own pytest process (bin/test): one Python process holds
either a classic SparkContext or a local Connect server, not both."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def connect() -> Iterator[object]:
    from pyspark.sql import SparkSession

    import bloomparquet as bp

    # The client repeats the server's start-up settings as session settings, which Spark refuses, noisily.
    warnings.filterwarnings("ignore", message="Failed to set spark\\.")
    builder = bp.configure(SparkSession.builder.remote("local[2]")).config("spark.sql.session.timeZone", "UTC")
    session = builder.getOrCreate()
    yield session
    session.stop()
