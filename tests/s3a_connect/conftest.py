"""Hadoop's S3A client against a local S3 server, over Spark Connect: PySpark's local Connect
server started with ``hadoop-aws`` (``spark.jars.packages``) and S3A's settings, as a user on S3
starts one. Its own pytest process (bin/test, ``BLOOMPARQUET_S3A=1 BLOOMPARQUET_CONNECT=1``): one
Python process holds either a classic SparkContext or a local Connect server."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from ..s3a import local_s3

BUCKET = "connect"


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    server, endpoint = local_s3.start_server()
    yield endpoint
    server.stop()


@pytest.fixture(scope="session")
def s3(s3_endpoint: str) -> Any:
    return local_s3.client(s3_endpoint, [BUCKET])


@pytest.fixture(scope="session")
def connect(s3_endpoint: str, s3: Any) -> Iterator[object]:
    from pyspark.sql import SparkSession

    import bloomparquet as bp

    # The client repeats the server's start-up settings as session settings, which Spark refuses, noisily.
    warnings.filterwarnings("ignore", message="Failed to set spark\\.")
    conf = local_s3.session_conf(s3_endpoint)
    builder = bp.configure(SparkSession.builder.remote("local[2]"), **conf).config("spark.sql.session.timeZone", "UTC")
    session = builder.getOrCreate()
    yield session
    session.stop()
