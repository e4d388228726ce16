"""Spark Connect: telling a Connect session from a classic one, and what a Connect
client can use instead of py4j (SQL functions, the execution's own metrics)."""

from __future__ import annotations

from typing import Any

EXTENSION = "io.bloomparquet.BloomParquetExtensions"


def is_connect(obj: Any) -> bool:
    """True for a Spark Connect SparkSession or DataFrame (they have no py4j JVM)."""
    return type(obj).__module__.startswith("pyspark.sql.connect")


def connect_scan_metrics(df: Any) -> dict[str, int]:
    """``scan_metrics`` from the last execution's own metrics (``DataFrame.executionInfo``)."""
    if not hasattr(df, "executionInfo"):
        import pyspark

        raise NotImplementedError(
            "scan_metrics over Spark Connect reads DataFrame.executionInfo, which Spark 4.0 added; this client is "
            f"pyspark {pyspark.__version__}: on Spark 3.5 read the scan's metrics in the Spark UI of the Connect "
            "server, or use a classic session"
        )
    info = df.executionInfo
    collected = info.metrics if info is not None else None
    if collected is None:
        raise RuntimeError("scan_metrics: run an action on this DataFrame first (no execution metrics yet)")
    out: dict[str, int] = {}
    scans = 0
    for plan in collected._metrics:  # noqa: SLF001 - CollectedMetrics exposes no public list
        if "Scan" not in plan.name:
            continue
        scans += 1
        for m in plan.metrics:
            if isinstance(m.value, int):
                out[m.name] = out.get(m.name, 0) + m.value
    out["scans"] = scans
    if "bloomTasksPlanned" in out:
        out["tasks"] = out["bloomTasksPlanned"]
    return out


def sql_function_missing(error: Exception, function: str) -> RuntimeError:
    """The error for a Connect server started without bloomparquet's session extension."""
    return RuntimeError(
        f"{function} is not registered on this Spark Connect server: start it with the bloomparquet jar and "
        f"spark.sql.extensions={EXTENSION} (see the user guide, 'Spark Connect'). Server said: {error}"
    )
