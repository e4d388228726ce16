"""Wheel build: the package plus one bloomparquet jar per supported Spark minor.

Metadata lives in pyproject.toml; this file only adds the jars, built by
``bin/setup --all-sparks`` (each against its minor's pinned pyspark) when a
wheel or sdist build finds them missing. Editable installs take the jars from
the checkout's ``jvm/target`` instead.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _pins() -> dict[str, str]:
    lines = (ROOT / "project" / "spark-versions.properties").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))


def _built_jar(minor: str, default: str) -> Path:
    return ROOT / "jvm" / "target" / ("bloomparquet.jar" if minor == default else f"spark-{minor}/bloomparquet.jar")


class BuildPyWithJars(build_py):
    """Copies a jar per supported minor into ``bloomparquet/jars/spark-<minor>/``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        pins = _pins()
        default = pins.pop("default")
        if any(not _built_jar(m, default).is_file() for m in pins):
            subprocess.check_call([str(ROOT / "bin" / "setup"), "--all-sparks"])
        for minor in pins:
            target = Path(self.build_lib) / "bloomparquet" / "jars" / f"spark-{minor}" / "bloomparquet.jar"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(_built_jar(minor, default), target)


setup(cmdclass={"build_py": BuildPyWithJars})
