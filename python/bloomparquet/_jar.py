"""Which bloomparquet jar matches the running Spark, and where it is."""

from __future__ import annotations

import os
import re
from pathlib import Path

JAR_ENV = "BLOOMPARQUET_JAR"
_PACKAGED = Path(__file__).parent / "jars"
_CHECKOUT = Path(__file__).resolve().parents[2]
_PINS = _CHECKOUT / "project" / "spark-versions.properties"


def spark_minor(version: str) -> str:
    """``"4.1"`` for ``"4.1.4"``, ``"4.2.0.dev1"``..."""
    parts = version.split(".")
    return ".".join(parts[:2])


def _pins() -> dict[str, str]:
    """A checkout's project/spark-versions.properties: minor -> pyspark, and ``default``
    (its other keys, such as ``scala.<minor>``, are the JVM build's)."""
    if not _PINS.is_file():
        return {}
    lines = [line.strip() for line in _PINS.read_text().splitlines()]
    pins = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    return {k: v for k, v in pins.items() if k == "default" or re.fullmatch(r"\d+\.\d+", k)}


def _checkout_jars() -> dict[str, Path]:
    """The jars a development checkout builds (``bin/setup [--all-sparks]``), by minor."""
    pins = _pins()
    if not pins:
        return {}
    default = pins.pop("default")
    target = _CHECKOUT / "jvm" / "target"
    return {m: target / ("bloomparquet.jar" if m == default else f"spark-{m}/bloomparquet.jar") for m in pins}


def supported_minors() -> list[str]:
    """The Spark minors this installation has a jar for (the wheel's, else the checkout's)."""
    if _PACKAGED.is_dir():
        return sorted(
            p.name.removeprefix("spark-") for p in _PACKAGED.glob("spark-*") if (p / "bloomparquet.jar").is_file()
        )
    return sorted(_checkout_jars())


def jar_path(spark_version: str | None = None) -> Path:
    """The bloomparquet jar for a Spark version, for ``--jars`` and ``spark.jars``.

    ``$BLOOMPARQUET_JAR`` when set, else the jar of that Spark minor shipped in
    the wheel, else the development checkout's build.

    Parameters
    ----------
    spark_version : str, optional
        A Spark version such as ``"4.1.1"``; by default the installed
        ``pyspark.__version__``.

    Returns
    -------
    pathlib.Path
        The jar.

    Raises
    ------
    RuntimeError
        The Spark minor is not supported, naming it and the supported ones.
    FileNotFoundError
        A supported minor whose jar is missing (a checkout not set up).

    Examples
    --------
    >>> jar = bp.jar_path()
    """
    override = os.environ.get(JAR_ENV)
    if override:
        return Path(override)
    if spark_version is None:
        import pyspark

        spark_version = pyspark.__version__
    minor = spark_minor(spark_version)
    supported = supported_minors()
    if minor not in supported:
        shown = ", ".join(supported) or "none (no jar built: run bin/setup)"
        raise RuntimeError(f"bloomparquet has no jar for Spark {spark_version}; supported Spark minors: {shown}")
    packaged = _PACKAGED / f"spark-{minor}" / "bloomparquet.jar"
    candidates = [packaged, _checkout_jars().get(minor)]
    for c in candidates:
        if c is not None and c.is_file():
            return c
    looked = ", ".join(str(c) for c in candidates if c is not None)
    hint = "bin/setup" if minor == _pins().get("default") else "bin/setup --all-sparks"
    raise FileNotFoundError(
        f"bloomparquet jar for Spark {minor} not found (looked at {looked}); run {hint} or set ${JAR_ENV}"
    )


def delta_package(spark_version: str | None = None) -> str | None:
    """The Delta Lake release the jar for a Spark version is built against, as ``spark.jars.packages`` takes it.

    Parameters
    ----------
    spark_version : str, optional
        A Spark version such as ``"4.2.1"``; by default the installed ``pyspark.__version__``.

    Returns
    -------
    str or None
        A Maven coordinate such as ``"io.delta:delta-spark_4.2_2.13:4.4.0"``; None where Delta Lake has no
        release for that Spark minor (its jar has no Delta support).

    Examples
    --------
    >>> bp.delta_package("3.5.7")
    'io.delta:delta-spark_2.12:3.3.2'
    """
    return _format_package("delta", spark_version)


def iceberg_package(spark_version: str | None = None) -> str | None:
    """The Apache Iceberg Spark runtime the jar for a Spark version is built against, as ``spark.jars.packages`` takes it.

    Parameters
    ----------
    spark_version : str, optional
        A Spark version such as ``"4.1.4"``; by default the installed ``pyspark.__version__``.

    Returns
    -------
    str or None
        A Maven coordinate such as ``"org.apache.iceberg:iceberg-spark-runtime-4.1_2.13:1.12.0"``; None where
        the jar for that Spark minor has no Iceberg support.

    Examples
    --------
    >>> bp.iceberg_package("4.1.4")
    'org.apache.iceberg:iceberg-spark-runtime-4.1_2.13:1.12.0'
    """
    return _format_package("iceberg", spark_version)


def _format_package(table_format: str, spark_version: str | None) -> str | None:
    import zipfile

    with zipfile.ZipFile(jar_path(spark_version)) as jar:
        try:
            return jar.read(f"io/bloomparquet/{table_format}-package.txt").decode().strip() or None
        except KeyError:
            return None
