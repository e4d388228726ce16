"""Wheel and sdist build: the package plus one bloomparquet jar per supported Spark minor.

Metadata lives in pyproject.toml; this file only adds the jars, which are sbt's to
build: ``bin/sbt packageAllSparks`` compiles each against its minor's Spark, from Maven
artifacts where Maven serves the minor, else from its pinned pyspark (the default minor's
is the one ``bin/setup`` installs). In a checkout, a wheel or sdist build runs it when a
jar is missing or older than the JVM build's inputs, and fails naming ``bin/setup`` when
it cannot. No pip runs inside the build. An sdist
carries the jars it was made with beside the JVM sources, so a wheel builds from it
without a JVM. Editable installs take the jars from the checkout's ``jvm/target``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
PINS = ROOT / "project" / "spark-versions.properties"
# What the jars are built from: a jar older than any of these is stale.
JVM_INPUTS = ("jvm/src/main", "build.sbt", "project/build.properties", "project/*.sbt", "project/*.scala",
              "project/*.properties")


def _minors() -> tuple[list[str], str]:
    """The supported minors (``4.0``...) and the default one, from project/spark-versions.properties."""
    lines = [line.strip() for line in PINS.read_text().splitlines()]
    pins = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    return sorted(k for k in pins if re.fullmatch(r"\d+\.\d+", k)), pins["default"]


def _built_jar(minor: str, default: str) -> Path:
    """Where sbt puts a minor's jar (project/SparkMinors.scala ``jarPath``)."""
    return ROOT / "jvm" / "target" / ("bloomparquet.jar" if minor == default else f"spark-{minor}/bloomparquet.jar")


def _newest_input() -> float:
    files = (f for pattern in JVM_INPUTS for p in ROOT.glob(pattern) for f in ([p] if p.is_file() else p.rglob("*")))
    return max(f.stat().st_mtime for f in files if f.is_file())


def _jars() -> dict[str, Path]:
    """Every minor's jar, built first (by sbt) when one is missing or stale; an sdist's are taken as they are."""
    minors, default = _minors()
    jars = {m: _built_jar(m, default) for m in minors}
    if (ROOT / "PKG-INFO").is_file():  # an unpacked sdist: its jars were fresh when it was made
        missing = [str(j) for j in jars.values() if not j.is_file()]
        if missing:
            sys.exit(f"bloomparquet: this sdist lacks the jars {', '.join(missing)}")
        return jars
    newest = _newest_input()
    if all(j.is_file() and j.stat().st_mtime >= newest for j in jars.values()):
        return jars
    command = [str(ROOT / "bin" / "sbt"), "packageAllSparks"]
    print(f"bloomparquet: building the jars for Spark {', '.join(minors)}: {' '.join(command)}", file=sys.stderr)
    # sbt's output on stderr: pip shows it when the build fails (and with -v).
    done = subprocess.run(command, cwd=ROOT, stdout=sys.stderr, stderr=sys.stderr, check=False)
    missing = [str(j) for j in jars.values() if not j.is_file()]
    if done.returncode != 0 or missing:
        sys.exit(
            "bloomparquet: building the jars failed (bin/sbt packageAllSparks, output above). Each is compiled "
            "against its Spark minor's Maven artifacts or, where Maven lacks the minor, its pinned pyspark "
            "(project/spark-versions.properties): run bin/setup first (it needs python3.11, a JDK 17 and mvn), "
            "then build again."
        )
    for j in jars.values():  # sbt leaves an up-to-date jar as it was: mark it checked
        os.utime(j)
    return jars


class BuildPyWithJars(build_py):
    """Copies a jar per supported minor into ``bloomparquet/jars/spark-<minor>/``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for minor, jar in _jars().items():
            target = Path(self.build_lib) / "bloomparquet" / "jars" / f"spark-{minor}" / "bloomparquet.jar"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(jar, target)


class SdistWithJars(sdist):
    """Builds the jars MANIFEST.in puts into the sdist before it lists its files."""

    def run(self) -> None:
        _jars()
        super().run()


setup(cmdclass={"build_py": BuildPyWithJars, "sdist": SdistWithJars})
