"""``configure()`` and ``session()`` inside sessions users already have: list settings already on a
builder are kept (bloomparquet's appended), and a session started without bloomparquet is refused
with the settings to add, not returned to fail at the first read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pyspark.sql import SparkSession

import bloomparquet as bp
from bloomparquet._connect import EXTENSION

DELTA = "io.delta.sql.DeltaSparkSessionExtension"


def test_configure_appends_to_lists_set_on_the_builder() -> None:
    builder = SparkSession.Builder()  # a builder of its own: the shared one would keep these settings
    builder.config("spark.sql.extensions", DELTA).config("spark.driver.extraJavaOptions", "-Dmine=1")
    builder.config("spark.sql.shuffle.partitions", "7")
    bp.configure(builder, **{"spark.jars": "/opt/udfs.jar", "spark.driver.extraJavaOptions": "-Dgiven=2"})
    held = builder._options
    assert held["spark.sql.extensions"] == f"{DELTA},{EXTENSION}", held
    assert held["spark.driver.extraJavaOptions"].split(" ")[:2] == ["-Dmine=1", "-Dgiven=2"], held
    assert "--add-modules=jdk.incubator.vector" in held["spark.driver.extraJavaOptions"].split(" "), held
    assert held["spark.jars"].split(",")[0] == "/opt/udfs.jar" and held["spark.jars"].endswith(".jar"), held
    assert held["spark.sql.shuffle.partitions"] == "7"
    again = dict(held)
    bp.configure(builder)  # configuring twice adds nothing twice
    assert builder._options == again


def test_session_refuses_a_session_started_without_bloomparquet() -> None:
    script = (
        "from pyspark.sql import SparkSession\n"
        "import bloomparquet as bp\n"
        "SparkSession.builder.master('local[1]').config('spark.ui.enabled', 'false').getOrCreate()\n"
        "try:\n"
        "    bp.session()\n"
        "except RuntimeError as e:\n"
        "    print('REFUSED', e)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python")}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    out = run.stdout
    assert "REFUSED bloomparquet: this process already runs a SparkSession started without bloomparquet" in out, (
        out + run.stderr[-2000:]
    )
    assert "spark.sql.extensions lacks" in out and "bloomparquet.configure(SparkSession.builder)" in out, out
