"""The test jar's latency-injecting file system (``slow://``) for the end-to-end benchmarks: the
session settings that mount it, and its settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TESTS_JAR = Path(__file__).resolve().parents[1] / "jvm" / "target" / "bloomparquet-tests.jar"


def session_conf() -> dict[str, str]:
    """Spark settings that put the test jar on the driver and mount ``slow://``."""
    if not TESTS_JAR.is_file():
        raise SystemExit(f"{TESTS_JAR} not found: run bin/sbt jvm/Test/package")
    jar = str(TESTS_JAR)
    return {
        "spark.jars": jar,
        "spark.driver.extraClassPath": jar,
        "spark.hadoop.fs.slow.impl": "io.bloomparquet.testing.SlowFileSystem",
    }


def set_latency(spark: Any, ms: int, mbps: float = 0.0, driver_mbps: float = 0.0) -> None:
    """Every open and GET waits ``ms``; each stream reads at ``mbps`` MB/s, all of them at once at
    ``driver_mbps`` (0: unlimited)."""
    store = spark._jvm.io.bloomparquet.testing.SlowFileSystem
    store.setLatencyMs(ms, ms)
    store.setMegabytesPerSecond(float(mbps))
    store.setDriverMegabytesPerSecond(float(driver_mbps))
