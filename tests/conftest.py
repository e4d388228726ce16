"""Shared fixtures: one local SparkSession with the bloomparquet jar for the run."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

# BLOOMPARQUET_LONG=1 runs the long property-based profile (more examples).
settings.register_profile("default", max_examples=60, deadline=None)
settings.register_profile("long", max_examples=1000, deadline=None)
settings.load_profile("long" if os.environ.get("BLOOMPARQUET_LONG") else "default")

# The Spark Connect tests need a process of their own (a local Connect server, no
# classic SparkContext): bin/test runs them with BLOOMPARQUET_CONNECT=1.
collect_ignore = [] if os.environ.get("BLOOMPARQUET_CONNECT") else ["connect"]


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    import bloomparquet

    session = bloomparquet.session(**{"spark.sql.session.timeZone": "UTC"})
    yield session
    session.stop()


class _Bridge:
    """Forwards known PythonBridge methods; unknown names raise AttributeError
    (py4j raises its own error, which confuses hypothesis' mock detection)."""

    def __init__(self, java_class: object) -> None:
        self._java = java_class

    def __getattr__(self, name: str) -> object:
        from py4j.protocol import Py4JError

        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return getattr(self._java, name)
        except Py4JError as e:
            raise AttributeError(name) from e


@pytest.fixture(scope="session")
def bridge(spark):  # noqa: ANN001, ANN201
    from bloomparquet._session import jvm_bridge

    return _Bridge(jvm_bridge(spark))
