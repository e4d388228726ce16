"""Shared fixtures: one local SparkSession with the bloomparquet jar and its test jar for the run."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from .spark_conf import CLUSTER_EXECUTORS, PUSHDOWN_OFF, rows, spark_conf

# BLOOMPARQUET_LONG=1 runs the long property-based profile (more examples).
settings.register_profile("default", max_examples=60, deadline=None)
settings.register_profile("long", max_examples=1000, deadline=None)
settings.load_profile("long" if os.environ.get("BLOOMPARQUET_LONG") else "default")

# The Spark Connect tests need a process of their own (a local Connect server, no
# classic SparkContext): bin/test runs them with BLOOMPARQUET_CONNECT=1.
collect_ignore = [] if os.environ.get("BLOOMPARQUET_CONNECT") else ["connect"]
# The Delta Lake tests too (a session with Delta's package and extension): BLOOMPARQUET_DELTA=1.
collect_ignore += [] if os.environ.get("BLOOMPARQUET_DELTA") else ["delta"]
# The Apache Iceberg tests (a session with Iceberg's Spark runtime and its catalogs): BLOOMPARQUET_ICEBERG=1.
collect_ignore += [] if os.environ.get("BLOOMPARQUET_ICEBERG") else ["iceberg"]
# Iceberg over Spark Connect: both.
collect_ignore += (
    [] if os.environ.get("BLOOMPARQUET_ICEBERG") and os.environ.get("BLOOMPARQUET_CONNECT") else ["iceberg_connect"]
)
# Hadoop's S3A against a local S3 server (a session with hadoop-aws on its class path): BLOOMPARQUET_S3A=1.
collect_ignore += [] if os.environ.get("BLOOMPARQUET_S3A") else ["s3a"]
# S3A over Spark Connect: both.
collect_ignore += (
    [] if os.environ.get("BLOOMPARQUET_S3A") and os.environ.get("BLOOMPARQUET_CONNECT") else ["s3a_connect"]
)
# Delta Lake over Spark Connect: both.
collect_ignore += (
    [] if os.environ.get("BLOOMPARQUET_DELTA") and os.environ.get("BLOOMPARQUET_CONNECT") else ["delta_connect"]
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files marked ``long`` first, each file's tests together: bin/test's main stage hands whole files to two
    processes in this order (``--dist loadfile --no-loadscope-reorder``), so neither is left with a long file at the
    end while the other idles."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


# BLOOMPARQUET_MASTER=local-cluster[2,1,1024] runs a suite with executors in JVMs of their own (bin/test runs
# the differential suites that way too): JVM-wide caches and task-side checks then live apart from the driver's.
MASTER = os.environ.get("BLOOMPARQUET_MASTER", "local[2]")

# Test-only JVM code (TestBridge, FailingFileSystem), built by bin/setup and bin/test.
TEST_JAR = Path(__file__).resolve().parents[1] / "jvm" / "target" / "bloomparquet-tests.jar"


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    import bloomparquet

    if not TEST_JAR.is_file():
        raise FileNotFoundError(f"{TEST_JAR} not found: run bin/setup (or bin/sbt jvm/Test/package)")
    jar = str(TEST_JAR)
    conf = {
        "spark.sql.session.timeZone": "UTC",
        "spark.ui.enabled": "false",  # no UI server per test process
        "spark.jars": jar,
        # Managed tables of this run's own: not the checkout's spark-warehouse/, nor another test run's.
        "spark.sql.warehouse.dir": str(tmp_path_factory.mktemp("warehouse")),
        # Not their defaults, so a test sees they reach the JVM-wide cache and pool.
        "spark.bloomparquet.planning.threads": "80",
        "spark.bloomparquet.cache.maxMb": "320",
    }
    if MASTER.startswith("local-cluster"):
        # Executors are JVMs of their own (the test jar reaches them through spark.jars): small heaps on 2 cores.
        conf.update(CLUSTER_EXECUTORS)
    session = bloomparquet.session(master=MASTER, **conf)
    yield session
    session.stop()


class _Bridge:
    """Forwards known TestBridge methods, then the product PythonBridge's;
    unknown names raise AttributeError (py4j raises its own error, which
    confuses hypothesis' mock detection)."""

    def __init__(self, *java_classes: object) -> None:
        self._java = java_classes

    def __getattr__(self, name: str) -> object:
        from py4j.protocol import Py4JError

        if name.startswith("_"):
            raise AttributeError(name)
        for java in self._java:
            try:
                return getattr(java, name)
            except Py4JError:
                pass
        raise AttributeError(name)


@pytest.fixture(scope="session")
def bridge(spark):
    from bloomparquet._session import jvm_bridge

    return _Bridge(spark._jvm.io.bloomparquet.testing.TestBridge, jvm_bridge(spark))


@pytest.fixture(scope="session")
def oracle(spark) -> Callable[..., list[tuple[Any, ...]]]:
    """The rows every bloomparquet read must return: Spark's ``parquet`` with its pushdown off.

    ``oracle(path, where)`` (sorted tuples); ``query`` maps the read DataFrame instead of or
    after ``where`` (a join, a projection); ``schema`` reads with that schema."""

    def answer(
        path: Path | str,
        where: str | None = None,
        *,
        query: Callable[[Any], Any] | None = None,
        schema: str | None = None,
    ) -> list[tuple[Any, ...]]:
        with spark_conf(spark, PUSHDOWN_OFF):
            reader = spark.read.schema(schema) if schema else spark.read
            df = reader.parquet(str(path))
            df = df if where is None else df.where(where)
            return rows(df if query is None else query(df))

    return answer


@pytest.fixture(scope="session")
def write_bloom_dir(tmp_path_factory) -> Callable[..., Path]:
    """Writes a DataFrame (classic or Connect) with bloomparquet's writer into a fresh directory:
    ``write_bloom_dir(df, columns, name, block_size, **options)`` returns the directory.
    ``block_size`` (``parquet.block.size``, bytes) sets how many row groups the files get."""
    import bloomparquet as bp

    def write(df: Any, columns: Sequence[str] | str, name: str, block_size: int, **options: Any) -> Path:
        out = tmp_path_factory.mktemp(name) / "written"
        bp.write_bloom(df, str(out), columns, **{"parquet.block.size": str(block_size), **options})
        return out

    return write


@pytest.fixture(scope="session")
def fact(spark, tmp_path_factory) -> Path:
    """The key-set tests' fact table (tests/key_set_fact.py), shared by their two modules."""
    from .key_set_fact import write_fact

    return write_fact(spark, tmp_path_factory.mktemp("keysets") / "fact")
