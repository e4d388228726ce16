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


def packages_on_executors(packages: list[str]) -> dict[str, str]:
    """``spark.executor.extraClassPath`` holding the jars of ``packages`` (``group:artifact:version``) as
    Spark's package resolution stores them. A table format's classes that its tasks deserialize are not
    found on local-cluster executors that got them through ``spark.jars.packages`` alone (delta-io/delta#1419,
    and Iceberg's writer factories alike)."""
    import pwd
    from pathlib import Path

    # Spark resolves packages under the JVM's user.home: the password database's home, not $HOME.
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    jars = home / (".ivy2" if SPARK3 else ".ivy2.5.2") / "jars"
    paths = []
    for package in packages:
        group, artifact, release = package.split(":")
        paths.append(str(jars / f"{group}_{artifact}-{release}.jar"))
    return {"spark.executor.extraClassPath": ":".join(paths)}


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
