"""A Spark Connect session: PySpark's local Connect server, started with the
bloomparquet jar and session extension by ``bloomparquet.session(remote="local[2]")``. These
tests run in their own pytest process (bin/test): one Python process holds
either a classic SparkContext or a local Connect server, not both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def connect() -> Iterator[object]:
    import bloomparquet as bp

    # The helper a user calls: PySpark's local Connect server, started with bloomparquet's jar,
    # extension and JVM flags (and, on Spark 3.5, Spark's Connect package), then checked for them.
    session = bp.session(remote="local[2]", **{"spark.sql.session.timeZone": "UTC"})
    yield session
    session.stop()
