"""A class-data-sharing archive of each Spark minor's test JVMs: the classes a Spark driver loads,
parsed and verified once and mapped into every later JVM of that minor instead of loaded again.

A test run starts a few hundred JVMs (a driver per suite, local-cluster executors, Connect servers,
``spark-submit`` and the CLI in subprocesses), each loading some ten thousand classes from Spark's jars,
on 2 shared cores. With the archive a driver starts on about 60% of the CPU it takes without one
(JDK 17, Spark 4.3: ~6 CPU-s instead of ~10; `bin/test cluster` 285 CPU-s instead of 329).

``python -m tests.jvm_archive [VENV...]`` dumps the archive of each environment named (two at a time), or
of the one it runs in, (JDK's dynamic archive,
``-XX:ArchiveClassesAtExit``) from a driver that starts a session and runs the kinds of work the tests
do, unless the archive is newer than that environment's install and the JDK. The JVM checks an
archive against its own build and class path before using any of it; a JVM it does not fit (another
minor's class path, another JDK) runs as without one, silently (``-Xlog:cds*=off``). ``jvm_flags``
gives the flags that use it; bin/test adds them to ``SPARK_SUBMIT_OPTS``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

NAME = "bloomparquet-test-classes.jsa"
STAMP = ".bloomparquet-installed"  # bin/setup writes it when it (re)installs an environment
QUIET = "-Xlog:cds*=off"  # an archive a JVM cannot use (another class path, another JDK) is not worth a line on stdout
TEST_JAR = Path(__file__).resolve().parents[1] / "jvm" / "target" / "bloomparquet-tests.jar"


def archive(venv: Path) -> Path:
    """Where the archive of the environment ``venv`` lives (inside it: it is of that environment's jars)."""
    return venv / NAME


def jvm_flags(venv: Path) -> str:
    """The JVM flags that map ``venv``'s archive in, or none while it has no archive."""
    path = archive(venv)
    return f"-XX:SharedArchiveFile={path} {QUIET}" if path.is_file() else ""


def with_archive_of(opts: str, venv: Path) -> str:
    """JVM options ``opts`` with the archive they name (if any) swapped for ``venv``'s: for a JVM of that
    environment started by a test of another's."""
    kept = [o for o in opts.split() if not o.startswith("-XX:SharedArchiveFile=") and o != QUIET]
    return " ".join([*kept, jvm_flags(venv)]).strip()


def _java() -> Path | None:
    """The java binary pyspark launches (JAVA_HOME's, else the one on PATH), links resolved."""
    home = os.environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    return Path(found).resolve() if found else None


def is_current(venv: Path) -> bool:
    """Whether ``venv``'s archive is newer than its install and the JDK (the JVM checks the rest itself)."""
    path, java = archive(venv), _java()
    if not path.is_file():
        return False
    made = path.stat().st_mtime
    inputs = [venv / STAMP] + ([java] if java else [])
    return all(not p.exists() or p.stat().st_mtime < made for p in inputs)


def _workload(spark, root: Path) -> None:
    """What most tests do, briefly: write with filters, read through each route, join, aggregate, SQL."""
    import bloomparquet as bp

    df = spark.range(20_000).selectExpr("id AS k", "CAST(id AS STRING) AS s", "id % 7 AS g", "id * 0.5 AS d")
    bp.write_bloom(df, str(root / "bloom"), ["k", "s"])
    df.write.parquet(str(root / "plain"))
    bp.read_bloom(spark, str(root / "bloom")).where("k = 5 OR s IN ('7', '9')").collect()
    with_opt_in = spark.read.parquet(str(root / "plain"))
    spark.conf.set("spark.bloomparquet.parquet.enabled", "true")
    with_opt_in.where("s = '42'").collect()
    spark.conf.unset("spark.bloomparquet.parquet.enabled")
    with_opt_in.createOrReplaceTempView("t")
    spark.sql("SELECT g, count(*), max(d) FROM t WHERE k < 100 GROUP BY g ORDER BY g").collect()
    keys = spark.range(3).selectExpr("id * 11 AS k")
    bp.read_bloom(spark, str(root / "bloom")).join(keys, "k").collect()
    with_opt_in.limit(10).toPandas()


def dump(venv: Path) -> None:
    """Makes ``venv``'s archive (this process must be that environment's Python)."""
    from pyspark import SparkContext

    import bloomparquet as bp

    target = archive(venv)
    partial = target.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    given = os.environ.get("SPARK_SUBMIT_OPTS", "")
    os.environ["SPARK_SUBMIT_OPTS"] = f"{given} -XX:ArchiveClassesAtExit={partial} {QUIET}".strip()
    conf = {"spark.ui.enabled": "false", "spark.jars": str(TEST_JAR), "spark.sql.session.timeZone": "UTC"}
    spark = bp.session(master="local[2]", **conf)
    with tempfile.TemporaryDirectory() as root:
        _workload(spark, Path(root))
    spark.stop()
    # The JVM writes the archive as it exits, which it does when its standard input closes.
    gateway = SparkContext._gateway
    proc = getattr(gateway, "proc", None)
    if gateway is None or proc is None:
        raise RuntimeError("no JVM of this process to wait for")
    gateway.shutdown()
    proc.stdin.close()
    proc.wait(timeout=300)
    if not partial.is_file():
        raise RuntimeError(f"the JVM wrote no archive at {partial}")
    partial.replace(target)


def _dump_in(venv: Path) -> tuple[Path, int, str]:
    """Runs this module in ``venv``'s Python: its archive made (or found current)."""
    try:
        done = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "tests.jvm_archive"],
            cwd=Path(__file__).resolve().parents[1],
            capture_output=True,
            text=True,
        )
    except OSError as e:  # no such environment
        return venv, 127, str(e)
    return venv, done.returncode, done.stdout + done.stderr


def main(venvs: list[str]) -> int:
    if venvs:
        # Each dump is one driver, mostly on one core: two side by side fill the machine's two.
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(_dump_in, map(Path, venvs)))
        # The archive only saves time: an environment without one runs its tests as before.
        for venv, rc, out in results:
            lines = [line for line in out.splitlines() if line.startswith("jvm_archive:")]
            failed = f"jvm_archive: no archive for {venv}, its JVMs start without one (exit {rc}):\n{out[-3000:]}"
            print("\n".join(lines) if rc == 0 else failed)
        return 0
    venv = Path(sys.prefix)
    if is_current(venv):
        print(f"jvm_archive: {archive(venv)} is current")
        return 0
    if not TEST_JAR.is_file():
        print(f"jvm_archive: {TEST_JAR} not found: run bin/setup", file=sys.stderr)
        return 1
    dump(venv)
    print(f"jvm_archive: wrote {archive(venv)} ({archive(venv).stat().st_size >> 20} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
