"""A local SparkSession with the bloomparquet jar and JVM flags in place."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._jar import jar_path

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

# Spark's launcher adds the Vector API module to the JVMs it starts; we say it
# again so a builder given other extraJavaOptions keeps it.
_JVM_FLAGS = "--add-modules=jdk.incubator.vector"


def configure(builder: SparkSession.Builder) -> SparkSession.Builder:
    """Put the bloomparquet jar on ``builder``'s driver and executor classpaths
    and enable the Vector API module, keeping jars, class paths and JVM options
    the builder already has. Returns the same builder."""
    jar = str(jar_path())
    # Append to what the builder already holds rather than replace it.
    held: dict[str, str] = getattr(builder, "_options", {})

    def joined(key: str, value: str, sep: str) -> str:
        old = held.get(key, "")
        return value if not old else old if value in old.split(sep) else f"{old}{sep}{value}"

    builder = builder.config("spark.jars", joined("spark.jars", jar, ","))
    builder = builder.config("spark.driver.extraClassPath", joined("spark.driver.extraClassPath", jar, ":"))
    for key in ("spark.driver.extraJavaOptions", "spark.executor.extraJavaOptions"):
        builder = builder.config(key, joined(key, _JVM_FLAGS, " "))
    return builder


def session(master: str = "local[2]", app_name: str = "bloomparquet", **spark_conf: str) -> SparkSession:
    """Get or create a SparkSession with bloomparquet loaded.

    ``spark_conf`` entries are Spark settings, e.g.
    ``session(**{"spark.sql.shuffle.partitions": "4"})``. Settings given here win
    over the helper's defaults (UI and progress bar off, 4 shuffle partitions).
    """
    from pyspark.sql import SparkSession

    builder = configure(SparkSession.builder.master(master).appName(app_name))
    defaults = {"spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false", "spark.sql.shuffle.partitions": "4"}
    for key, value in {**defaults, **spark_conf}.items():
        builder = builder.config(key, str(value))
    return builder.getOrCreate()


def jvm_bridge(spark: SparkSession):  # noqa: ANN201 - a py4j JavaClass proxy
    """The JVM-side ``io.bloomparquet.python.PythonBridge`` of ``spark``."""
    return spark._jvm.io.bloomparquet.python.PythonBridge  # type: ignore[union-attr]
