"""The Spark settings of a session that reads Delta Lake tables, for the Delta benchmarks: Delta's
release for the installed pyspark (project/spark-versions.properties), its extension and catalog."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.delta.conftest import DELTA_EXTENSION, delta_package


def delta_conf() -> dict[str, str]:
    """Settings that load Delta Lake; exits, saying where to run, on a pyspark Delta has no release for."""
    import pyspark

    package = delta_package(pyspark.__version__)
    if package is None:
        raise SystemExit(f"Delta Lake has no release for Spark {pyspark.__version__}: run with .venvs/spark-4.2")
    return {
        "spark.jars.packages": package,
        "spark.sql.extensions": DELTA_EXTENSION,
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
    }
