"""The release bin/test makes (bin/release into jvm/target/release): its Maven repository, the pins
its artifacts are built from, and how the packaging tests run a minor's ``spark-submit``."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tests.jvm_archive import with_archive_of

ROOT = Path(__file__).resolve().parents[2]
REPO = ROOT / "jvm" / "target" / "release" / "maven"
PINS = dict(
    line.split("=", 1)
    for line in (ROOT / "project" / "spark-versions.properties").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)
MINORS = sorted((k for k in PINS if re.fullmatch(r"\d+\.\d+", k)), key=lambda m: tuple(map(int, m.split("."))))
VERSION = re.search(r'version := "([^"]+)"', (ROOT / "build.sbt").read_text()).group(1)  # type: ignore[union-attr]
# A user's environment, not the checkout's.
USER_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BLOOMPARQUET_JAR", "SPARK_HOME")}


def newest_minor(table_format: str) -> str:
    """The newest Spark minor a table format (``delta``, ``iceberg``) has a release pinned for."""
    prefix = f"{table_format}."
    return max(
        (k.removeprefix(prefix) for k in PINS if k.startswith(prefix)), key=lambda m: tuple(map(int, m.split(".")))
    )


def artifact(minor: str) -> tuple[str, Path]:
    """A minor's artifact name (``bloomparquet-spark-<minor>_<scala>``) and its folder in the repository."""
    scala = ".".join(PINS[f"scala.{minor}"].split(".")[:2])
    name = f"bloomparquet-spark-{minor}_{scala}"
    return name, REPO / "io" / "bloomparquet" / name / VERSION


def venv(minor: str) -> Path:
    """The venv holding a minor's pinned pyspark (bin/setup --all-sparks)."""
    return ROOT / (".venv" if PINS["default"] == minor else f".venvs/spark-{minor}")


def spark_submit(minor: str, args: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """``spark-submit ARGS`` of a minor's pyspark, as a user without the checkout runs it."""
    python = venv(minor) / "bin" / "python"
    home = subprocess.run(
        [str(python), "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    env = {**USER_ENV, "SPARK_HOME": home, "PYSPARK_PYTHON": str(python), "PYSPARK_DRIVER_PYTHON": str(python)}
    env["SPARK_SUBMIT_OPTS"] = with_archive_of(env.get("SPARK_SUBMIT_OPTS", ""), venv(minor))
    cmd = [str(venv(minor) / "bin" / "spark-submit"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
