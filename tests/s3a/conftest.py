"""Hadoop's S3A client against a local S3 server (``local_s3``): a SparkSession with
``hadoop-aws`` through ``spark.jars.packages``, as a user on S3 starts one. These tests run in a
pytest process of their own (bin/test, ``BLOOMPARQUET_S3A=1``, on the default Spark): a process
holds one SparkContext, and its class path is set when it starts.

Two buckets, one per S3A input stream: ``analytics`` (Hadoop 3.5's default, which asks for an
object's metadata unless opened with an S3A status) and ``classic``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..spark_conf import CLUSTER_EXECUTORS
from . import local_s3

BUCKETS = {"analytics": "analytics", "classic": "classic"}
TEST_JAR = Path(__file__).resolve().parents[2] / "jvm" / "target" / "bloomparquet-tests.jar"
# An Ivy home per Hadoop version: its jars/ (the executors' class path on local-cluster) holds that
# hadoop-aws and what it needs, nothing else.
IVY_HOME = Path.home() / f".ivy2-s3a-{local_s3.hadoop_version()}"


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    with local_s3.serving() as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
def s3(s3_endpoint: str) -> Any:
    """A boto3 client of the local server, with the buckets made."""
    return local_s3.client(s3_endpoint, list(BUCKETS.values()))


@pytest.fixture(scope="session")
def spark(s3_endpoint: str, s3: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    import bloomparquet as bp

    conf = {
        **local_s3.session_conf(s3_endpoint, **{f"bucket.{BUCKETS['classic']}.input.stream.type": "classic"}),
        "spark.ui.enabled": "false",
        "spark.jars": str(TEST_JAR),
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.warehouse.dir": str(tmp_path_factory.mktemp("warehouse")),
        "spark.jars.ivy": str(IVY_HOME),
    }
    # BLOOMPARQUET_MASTER=local-cluster[...] (bin/test runs the tests whose files executors read that way):
    # executors in JVMs of their own, each with its own S3A client, statuses and caches.
    master = os.environ.get("BLOOMPARQUET_MASTER", "local[2]")
    if master.startswith("local-cluster"):
        conf.update(CLUSTER_EXECUTORS)
        # Hadoop finds a file system's class through its own class loader, not the tasks' (which hold
        # spark.jars.packages): executors take hadoop-aws from their class path, as on a cluster.
        conf["spark.executor.extraClassPath"] = str(IVY_HOME / "jars" / "*")
    session = bp.session(master=master, **conf)
    yield session
    session.stop()
