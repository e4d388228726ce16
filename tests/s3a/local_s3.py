"""A local S3 server (moto's, in this process) and the Spark settings that point Hadoop's S3A
client at it, with ``hadoop-aws`` (the installed pyspark's Hadoop release, with its AWS SDK
bundle) through ``spark.jars.packages``: shared by the S3A tests and ``bench/filter_reads.py --s3a``.
``hadoop-aws`` stays on this session's class path, never in our jar."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyspark

REGION = "us-east-1"
CREDENTIALS = {"aws_access_key_id": "test", "aws_secret_access_key": "test"}


def hadoop_version() -> str:
    """The Hadoop release the installed pyspark ships (its hadoop-client-api jar)."""
    jars = Path(pyspark.__file__).parent / "jars"
    found = sorted(jars.glob("hadoop-client-api-*.jar"))
    if not found:
        raise FileNotFoundError(f"no hadoop-client-api jar in {jars}")
    return found[0].name.removeprefix("hadoop-client-api-").removesuffix(".jar")


def start_server() -> tuple[Any, str]:
    """A started moto server on a free loopback port, and its endpoint."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    return server, f"http://{host}:{port}"


@contextmanager
def serving() -> Iterator[str]:
    """A moto server for the block (a test session's): its endpoint."""
    server, endpoint = start_server()
    try:
        yield endpoint
    finally:
        server.stop()


def client(endpoint: str, buckets: list[str]) -> Any:
    """A boto3 client of the server at ``endpoint``, with ``buckets`` made."""
    import boto3

    s3 = boto3.client("s3", endpoint_url=endpoint, region_name=REGION, **CREDENTIALS)
    for bucket in buckets:
        s3.create_bucket(Bucket=bucket)
    return s3


def session_conf(endpoint: str, **s3a: str) -> dict[str, str]:
    """Spark settings for S3A against ``endpoint`` (``s3a``: more ``fs.s3a.*`` settings, without the prefix)."""
    settings = {
        "endpoint": endpoint,
        "endpoint.region": REGION,
        "path.style.access": "true",
        "connection.ssl.enabled": "false",
        "access.key": CREDENTIALS["aws_access_key_id"],
        "secret.key": CREDENTIALS["aws_secret_access_key"],
        **s3a,
    }
    return {
        "spark.jars.packages": f"org.apache.hadoop:hadoop-aws:{hadoop_version()}",
        **{f"spark.hadoop.fs.s3a.{k}": v for k, v in settings.items()},
    }


def request_counts(spark: Any, bucket: str) -> dict[str, int]:
    """S3A's own request counters of ``bucket``'s file system (the instance Spark's reads share)."""
    jvm = spark._jvm
    fs = jvm.org.apache.hadoop.fs.Path(f"s3a://{bucket}/").getFileSystem(spark._jsc.hadoopConfiguration())
    counters = fs.getIOStatistics().counters()
    names = {
        "get": "action_http_get_request",
        "head": "action_http_head_request",
        "list": "object_list_request",
        "vectored": "stream_read_vectored_operations",
        "vectored_gets": "stream_read_vectored_combined_ranges",
        "bytes": "stream_read_bytes",
    }
    return {k: int(counters.get(v) or 0) for k, v in names.items()}


def round_trips(counts: dict[str, int]) -> int:
    """Requests one after another: a vectored read's GETs run in parallel, one round."""
    return counts["get"] - counts["vectored_gets"] + counts["vectored"] + counts["head"] + counts["list"]
