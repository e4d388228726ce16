"""Test helper: session settings for a block, restored afterwards."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from typing import Any

# The client's Spark is 3.x (3.5): no DataFrame.executionInfo, no Connect server in pyspark, no WITH options.
SPARK3 = int(version("pyspark").split(".")[0]) < 4

# Executors of local-cluster sessions: JVMs of their own, small heaps on 2 shared cores, and the driver's
# test JVM flags (bin/test gives them to the drivers Spark launches: SPARK_SUBMIT_OPTS).
CLUSTER_EXECUTORS = {
    "spark.executor.memory": "1g",
    "spark.executor.extraJavaOptions": os.environ.get("SPARK_SUBMIT_OPTS", "").strip(),
}

# Spark's semantics without its Parquet pushdown: the oracle every differential test compares with.
PUSHDOWN_OFF = {"spark.sql.parquet.filterPushdown": "false"}


@contextmanager
def spark_conf(spark, settings: dict[str, str]) -> Iterator[None]:
    """Sets ``settings`` on the session for the block; each key gets its previous value back (or is unset)."""
    before = {k: spark.conf.get(k, None) for k in settings}
    for k, v in settings.items():
        spark.conf.set(k, v)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


def rows(df) -> list[tuple[Any, ...]]:
    """``df``'s rows as tuples in one order (by ``repr``: nulls and mixed types sort too), as
    differential tests compare them."""
    return sorted(map(tuple, df.collect()), key=repr)
