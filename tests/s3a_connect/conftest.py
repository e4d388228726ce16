"""Hadoop's S3A client against a local S3 server, over Spark Connect: PySpark's local Connect
server started with ``hadoop-aws`` (``spark.jars.packages``) and S3A's settings, as a user on S3
starts one. Its own pytest process (bin/test, ``BLOOMPARQUET_S3A=1 BLOOMPARQUET_CONNECT=1``): one
Python process holds either a classic SparkContext or a local Connect server."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from ..s3a import local_s3

BUCKET = "connect"


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    with local_s3.serving() as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
def connect(s3_endpoint: str) -> Iterator[object]:
    from pyspark.sql import SparkSession

    import bloomparquet as bp

    local_s3.client(s3_endpoint, [BUCKET])  # the bucket the tests write to

    # The client repeats the server's start-up settings as session settings, which Spark refuses, noisily.
    warnings.filterwarnings("ignore", message="Failed to set spark\\.")
    conf = local_s3.session_conf(s3_endpoint)
    builder = bp.configure(SparkSession.builder.remote("local[2]"), **conf).config("spark.sql.session.timeZone", "UTC")
    session = builder.getOrCreate()
    yield session
    session.stop()
