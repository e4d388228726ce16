"""A class-data sharing archive of Spark's own classes for the JVMs a test environment starts.

Every Spark JVM the tests start (drivers, local-cluster executors, Spark Connect servers, the CLI's)
loads and verifies the same tens of thousands of classes from the environment's ``pyspark/jars``; on
2 cores that is a third of a short suite's CPU. HotSpot can map them from an archive written once
(``-XX:ArchiveClassesAtExit``, JDK 13 and later): a short Spark job then takes about 11 CPU seconds
instead of 17. The archive holds the classes of Spark's class path only (those of ``spark.jars``, ours
among them, load as before).

The flags are safe where the archive cannot serve: a JVM whose class path, JDK or build differs, or
that finds no archive, ignores it silently (``-Xlog`` for the ``cds`` tags off, so no warning reaches
a test's output) and loads its classes as usual.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

# A job that loads what the suites use most: SQL parsing, analysis and AQE planning, Parquet written
# and read with pushed filters, shuffles, broadcast and sort-merge joins, windows, codegen, Arrow.
_JOB = """
import sys, tempfile
from pyspark.sql import SparkSession
spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
d = tempfile.mkdtemp()
spark.range(20000).selectExpr("id", "CAST(id AS STRING) AS s", "id % 7 AS m", "CAST(id AS DOUBLE) / 3 AS x") \\
    .write.partitionBy("m").parquet(d + "/t")
t = spark.read.parquet(d + "/t")
t.where("id = 5 AND s = '5'").collect()
t.where("id IN (1, 2, 3) OR x > 1e9").count()
t.groupBy("m").agg({"x": "sum", "id": "max"}).orderBy("m").collect()
t.createOrReplaceTempView("t")
spark.sql("SELECT a.m, count(*) FROM t a JOIN t b ON a.id = b.id WHERE a.s LIKE '1%' GROUP BY a.m").collect()
spark.conf.set("spark.sql.autoBroadcastJoinThreshold", "-1")
spark.sql("SELECT a.m, rank() OVER (PARTITION BY a.m ORDER BY a.x) r FROM t a JOIN t b ON a.id = b.id").limit(5).collect()
spark.sql(f"CREATE TABLE c USING parquet LOCATION '{d}/c' AS SELECT * FROM t WHERE m = 1")
spark.table("c").where("s IN ('8', '15')").toPandas()
spark.createDataFrame(spark.range(10).toPandas()).collect()
spark.stop()
"""

_made = threading.Lock()


def _java() -> Path | None:
    """The java Spark's launcher runs: ``$JAVA_HOME/bin/java``, else the one on ``PATH``."""
    home = os.environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    return Path(found).resolve() if found and Path(found).exists() else None


def path(venv: Path) -> Path | None:
    """Where the archive of ``venv``'s Spark for this machine's java lives (None: no java found). Its name
    changes with the JDK and with the environment's installation, so an archive never outlives either."""
    java = _java()
    if java is None:
        return None
    stamp = venv / ".bloomparquet-installed"
    key = f"{java} {java.stat().st_mtime_ns} {stamp.read_text() if stamp.exists() else ''}"
    return venv / f"spark-classes-{hashlib.sha256(key.encode()).hexdigest()[:16]}.jsa"


def flags(venv: Path) -> str:
    """The JVM flags that use ``venv``'s archive where it exists, silently nothing where it does not."""
    archive = path(venv)
    return f"-XX:SharedArchiveFile={archive} -Xlog:cds=off -Xlog:cds+dynamic=off" if archive else ""


def ensure(venv: Path, jvm_flags: str) -> Path | None:
    """``venv``'s archive, written first where missing by a short Spark job run with ``jvm_flags`` (the
    flags the tests' JVMs run with: the archive must be made under the same collector). None where it
    could not be made: the tests then run without it."""
    archive = path(venv)
    if archive is None or not (venv / "bin" / "spark-submit").exists():
        return None
    with _made:
        if archive.exists():
            return archive
        for old in venv.glob("spark-classes-*.jsa"):
            old.unlink()
        written = archive.with_suffix(f".{os.getpid()}.tmp")
        with tempfile.TemporaryDirectory() as tmp:
            job = Path(tmp) / "job.py"
            job.write_text(_JOB)
            env = {
                **os.environ,
                "PYSPARK_PYTHON": str(venv / "bin" / "python"),
                "SPARK_SUBMIT_OPTS": f"{jvm_flags} -XX:ArchiveClassesAtExit={written} -Xlog:cds=off -Xlog:cds+dynamic=off",
            }
            done = subprocess.run(
                [str(venv / "bin" / "spark-submit"), str(job)],
                env=env,
                cwd=tmp,
                capture_output=True,
                timeout=600,
            )
            if done.returncode != 0 or not written.exists():
                written.unlink(missing_ok=True)
                return None
            os.replace(written, archive)  # whole or not at all: a JVM may be starting with its flags
    return archive
