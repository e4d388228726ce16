"""A SparkSession with the bloomparquet jar and JVM flags in place, and the py4j handles a classic one gives."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._connect import EXTENSION
from ._jar import jar_path

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

# Spark's launcher adds the Vector API module to the JVMs it starts; we say it
# again so a session given other extraJavaOptions keeps it.
_JVM_FLAGS = "--add-modules=jdk.incubator.vector"
# The list-valued settings bloomparquet adds to, and their separators.
_LISTS = {
    "spark.jars": ",",
    "spark.sql.extensions": ",",
    "spark.driver.extraClassPath": ":",
    "spark.driver.extraJavaOptions": " ",
    "spark.executor.extraJavaOptions": " ",
}


def _appended(old: str | None, value: str, sep: str) -> str:
    """``old`` with ``value`` appended, unless it is already an element."""
    if not old:
        return value
    return old if value in old.split(sep) else f"{old}{sep}{value}"


def _with_bloomparquet(conf: Mapping[str, object]) -> dict[str, str]:
    """``conf`` as strings, with the jar, the session extension and the JVM flags appended to its lists."""
    jar = str(jar_path())
    ours = {
        "spark.jars": jar,
        "spark.sql.extensions": EXTENSION,
        "spark.driver.extraClassPath": jar,
        "spark.driver.extraJavaOptions": _JVM_FLAGS,
        "spark.executor.extraJavaOptions": _JVM_FLAGS,
    }
    out = {k: str(v) for k, v in conf.items()}
    for key, value in ours.items():
        out[key] = _appended(out.get(key), value, _LISTS[key])
    return out


def configure(builder: SparkSession.Builder, **conf: object) -> SparkSession.Builder:
    """Load bloomparquet on a SparkSession builder.

    Sets ``conf`` on ``builder`` with bloomparquet's jar on the driver and
    executor class paths (``spark.jars``, ``spark.driver.extraClassPath``), its
    session extension (``spark.sql.extensions``: the SQL functions and routes)
    and the Vector API module (``spark.{driver,executor}.extraJavaOptions``)
    appended to what ``conf`` holds for those keys. Works for
    ``SparkSession.builder.remote("local[...]")`` too: PySpark starts the local
    Connect server with these settings.

    Parameters
    ----------
    builder : SparkSession.Builder
        The builder to configure (``SparkSession.builder.master(...)``, ...).
    **conf
        Spark settings. Give your own jars, extensions, class paths and JVM
        options here rather than on ``builder``: PySpark's builder cannot tell
        what it holds, so a list set there would be replaced, not extended.

    Returns
    -------
    SparkSession.Builder
        ``builder``, configured.

    Examples
    --------
    >>> spark = bp.configure(SparkSession.builder.master("yarn")).getOrCreate()
    >>> spark = bp.configure(SparkSession.builder, **{"spark.jars": "/opt/udfs.jar"}).getOrCreate()
    """
    settings: dict[str, bool | float | int | str | None] = {**_with_bloomparquet(conf)}
    return builder.config(map=settings)


def session(master: str = "local[2]", app_name: str = "bloomparquet", **spark_conf: object) -> SparkSession:
    """Get or create a SparkSession with bloomparquet loaded.

    Parameters
    ----------
    master : str
        Spark's master URL.
    app_name : str
        The application's name.
    **spark_conf
        Spark settings, e.g. ``session(**{"spark.sql.shuffle.partitions": "8"})``.
        They win over the helper's defaults (UI and progress bar off, 4 shuffle
        partitions); jars, extensions, class paths and JVM options given here
        are kept, bloomparquet's appended (as :func:`configure` does).

    Returns
    -------
    SparkSession
        The session, classic (py4j).

    Examples
    --------
    >>> spark = bp.session()
    """
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(master).appName(app_name)
    defaults = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "4",
    }
    return configure(builder, **{**defaults, **spark_conf}).getOrCreate()


# py4j handles of a classic session: PySpark has no public ones, so they are read here and nowhere else.


def jvm(spark: SparkSession) -> Any:
    """The py4j view of ``spark``'s JVM (``spark._jvm``)."""
    return spark._jvm  # noqa: SLF001


def jvm_session(spark: SparkSession) -> Any:
    """The JVM SparkSession behind ``spark``."""
    return spark._jsparkSession  # noqa: SLF001


def jvm_dataframe(df: DataFrame) -> Any:
    """The JVM Dataset behind ``df``."""
    return df._jdf  # noqa: SLF001


def jvm_bridge(spark: SparkSession) -> Any:
    """The JVM-side ``io.bloomparquet.python.PythonBridge`` of ``spark``."""
    return jvm(spark).io.bloomparquet.python.PythonBridge
