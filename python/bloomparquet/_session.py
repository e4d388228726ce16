"""A SparkSession with the bloomparquet jar and JVM flags in place, and the py4j handles a classic one gives."""

from __future__ import annotations

import weakref
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
        "spark.driver.extraJavaOptions": _JVM_FLAGS,
        "spark.executor.extraJavaOptions": _JVM_FLAGS,
    }
    out = {k: str(v) for k, v in conf.items()}
    for key, value in ours.items():
        out[key] = _appended(out.get(key), value, _LISTS[key])
    return out


def configure(builder: SparkSession.Builder, **conf: object) -> SparkSession.Builder:
    """Load bloomparquet on a SparkSession builder.

    Sets ``conf`` on ``builder`` with bloomparquet's jar in ``spark.jars``
    (Spark puts it on the driver's and the executors' class paths, and ships it
    to the cluster in any deploy mode), its session extension (``spark.sql.extensions``: the SQL functions and routes)
    and the Vector API module (``spark.{driver,executor}.extraJavaOptions``)
    appended to what ``conf`` holds for those keys. Works for
    ``SparkSession.builder.remote("local[...]")`` too: PySpark starts the local
    Connect server with these settings.

    Parameters
    ----------
    builder : SparkSession.Builder
        The builder to configure (``SparkSession.builder.master(...)``, ...).
    **conf
        Spark settings. Jars, extensions and JVM options already
        set on ``builder`` or given here are kept, bloomparquet's appended.

    Returns
    -------
    SparkSession.Builder
        ``builder``, configured.

    Examples
    --------
    >>> spark = bp.configure(SparkSession.builder.master("yarn")).getOrCreate()
    >>> spark = bp.configure(SparkSession.builder, **{"spark.jars": "/opt/udfs.jar"}).getOrCreate()
    """
    settings: dict[str, bool | float | int | str | None] = {**_with_bloomparquet(_with_builder_lists(builder, conf))}
    return builder.config(map=settings)


def _with_builder_lists(builder: SparkSession.Builder, conf: Mapping[str, object]) -> dict[str, object]:
    """``conf`` with the list settings already on ``builder`` in front of its own (PySpark keeps a
    builder's settings in ``_options``; where a release does not, a warning says to pass them here)."""
    held = getattr(builder, "_options", None)
    if not isinstance(held, Mapping):
        import warnings

        warnings.warn(
            "bloomparquet.configure: this PySpark's builder does not show its settings; "
            f"{', '.join(_LISTS)} set on it before are replaced: give them to configure() instead",
            stacklevel=3,
        )
        return dict(conf)
    out = dict(conf)
    for key, sep in _LISTS.items():
        before = held.get(key)
        if before:
            mine = out.get(key)
            out[key] = str(before) if mine is None else _appended(str(before), str(mine), sep)
    return out


def _check_loaded(spark: SparkSession) -> None:
    """Raises if ``spark`` (a classic session started earlier, maybe without bloomparquet) lacks the
    session extension or cannot load the jar's classes: every bloomparquet read would fail later."""
    extensions = spark.sparkContext.getConf().get("spark.sql.extensions", "") or ""
    from py4j.protocol import Py4JJavaError

    try:  # through Spark's class loader, which holds spark.jars as well as the class path
        jvm(spark).org.apache.spark.util.Utils.classForName(
            "io.bloomparquet.spark.BloomParquetDataSource", False, False
        )
        jar_loaded = True
    except Py4JJavaError:
        jar_loaded = False
    if EXTENSION not in extensions.split(",") or not jar_loaded:
        raise RuntimeError(
            "bloomparquet: this process already runs a SparkSession started without bloomparquet "
            f"(spark.sql.extensions {'holds' if EXTENSION in extensions else 'lacks'} {EXTENSION}; the jar is "
            f"{'on' if jar_loaded else 'not on'} the driver's class path: spark.jars). "
            "Stop it (spark.stop()) and call bloomparquet.session() again, or start it with "
            "bloomparquet.configure(SparkSession.builder)."
        )


def session(
    master: str = "local[2]", app_name: str = "bloomparquet", *, remote: str | None = None, **spark_conf: object
) -> SparkSession:
    """Get or create a SparkSession with bloomparquet loaded, classic or Spark Connect.

    Parameters
    ----------
    master : str
        Spark's master URL, for a classic session.
    app_name : str
        The application's name (of a local Connect server, with ``remote="local[...]"``).
    remote : str, optional
        A Spark Connect session instead: ``"local[2]"`` starts PySpark's local
        Connect server with bloomparquet's jar, extension and JVM flags (as
        :func:`configure` does); ``"sc://host:15002"`` connects to a running
        server, which must have been started with them (the jar in ``--jars``,
        ``spark.sql.extensions=io.bloomparquet.BloomParquetExtensions``).
    **spark_conf
        Spark settings, e.g. ``session(**{"spark.sql.shuffle.partitions": "8"})``.
        Locally they win over the helper's defaults (the progress bar off, 4 shuffle
        partitions; the Spark UI stays on, where scan metrics show); jars, extensions
        and JVM options given here are kept, bloomparquet's appended (as
        :func:`configure` does). On a running server (``sc://``) no defaults are set,
        and only settings a session may change take effect.

    Returns
    -------
    SparkSession
        The session: classic (py4j), or Spark Connect when ``remote`` is given.

    Raises
    ------
    RuntimeError
        If this process already runs a classic session started without
        bloomparquet's extension or jar (a notebook's), or the Connect server
        lacks them: it names the settings to add.

    Examples
    --------
    >>> spark = bp.session()
    """
    from pyspark.sql import SparkSession

    defaults = {
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "4",
    }
    if remote is not None:
        return _connect_session(remote, app_name, defaults, spark_conf)
    builder = SparkSession.builder.master(master).appName(app_name)
    spark = configure(builder, **{**defaults, **spark_conf}).getOrCreate()
    _check_loaded(spark)
    return spark


def _connect_session(
    remote: str, app_name: str, defaults: Mapping[str, str], spark_conf: Mapping[str, object]
) -> SparkSession:
    """A Spark Connect session at ``remote``: a local server started with bloomparquet, or a running one
    checked for it."""
    import warnings

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.remote(remote)
    if remote.startswith("local"):
        conf: dict[str, object] = {"spark.app.name": app_name, **defaults, **spark_conf}
        package = _connect_server_package()
        if package:
            conf["spark.jars.packages"] = _appended(str(conf.get("spark.jars.packages") or ""), package, ",")
        builder = configure(builder, **conf)
    elif spark_conf:
        builder = builder.config(map={k: str(v) for k, v in spark_conf.items()})
    with warnings.catch_warnings():
        # The client repeats a local server's start-up settings as session settings, which the server
        # refuses (they took effect when it started): not the user's concern.
        warnings.filterwarnings("ignore", message="Failed to set spark\\.")
        spark = builder.getOrCreate()
    _check_connect_loaded(spark)
    return spark


def _connect_server_package() -> str | None:
    """The Maven package of Spark's Connect server where pyspark does not ship it (Spark 3.5)."""
    import pyspark

    if not pyspark.__version__.startswith("3."):
        return None
    return f"org.apache.spark:spark-connect_2.12:{pyspark.__version__}"


def _check_connect_loaded(spark: SparkSession, function: str = "bloomparquet_kernel") -> None:
    """Raises if the Connect server behind ``spark`` lacks bloomparquet's SQL functions (its session
    extension or jar): every bloomparquet read would fail later, less clearly."""
    from pyspark.errors import AnalysisException

    from ._connect import sql_function_missing

    try:
        spark.sql(f"SELECT * FROM {function}()").collect()
    except AnalysisException as e:
        raise sql_function_missing(e, function) from e


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


# Each name on the way to a JVM class is a py4j round trip that makes the JVM search its class path: once per JVM.
_BRIDGES: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def jvm_bridge(spark: SparkSession) -> Any:
    """The JVM-side ``io.bloomparquet.python.PythonBridge`` of ``spark``."""
    view = jvm(spark)
    bridge = _BRIDGES.get(view)
    if bridge is None:
        bridge = _BRIDGES[view] = view.io.bloomparquet.python.PythonBridge
    return bridge


def java_map(m: Any) -> dict[str, Any]:
    """A JVM ``java.util.Map``'s entries, its keys as ``str``.

    Read through the key set's array: iterating the map itself ends with the JVM throwing
    ``NoSuchElementException``, which PySpark's error handler converts at some 20 ms a time.
    """
    return {str(k): m.get(k) for k in m.keySet().toArray()}
