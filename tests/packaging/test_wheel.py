"""The wheel: one jar per supported Spark minor, installable into an existing
Spark without touching it, and working there without the checkout on the path."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINS = dict(
    line.split("=", 1)
    for line in (ROOT / "project" / "spark-versions.properties").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)
MINORS = sorted(k for k in PINS if re.fullmatch(r"\d+\.\d+", k))  # not default, not scala.<minor>
# A user's environment, not the checkout's: with PYTHONPATH=<checkout>/python, pip in a fresh venv
# takes the checkout's bloomparquet.egg-info for an installed bloomparquet and skips the wheel.
USER_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BLOOMPARQUET_JAR", "SPARK_HOME")}


RELEASED = ROOT / "jvm" / "target" / "release" / "python"  # bin/test's bin/release


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The release's wheel where bin/test made one, else ``pip wheel`` of this tree."""
    released = sorted(RELEASED.glob("bloomparquet-*.whl"))
    if released:
        return released[-1]
    out = tmp_path_factory.mktemp("dist")
    # pip builds in the tree: a stale build/lib would carry removed modules into the wheel.
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)], check=True)
    (built,) = out.glob("bloomparquet-*.whl")
    return built


def test_wheel_holds_one_jar_per_supported_minor(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    jars = sorted(n for n in names if n.endswith(".jar"))
    assert jars == [f"bloomparquet/jars/spark-{m}/bloomparquet.jar" for m in MINORS]
    print(f"wheel {wheel.name}: {wheel.stat().st_size / 2**20:.2f} MiB, jars for Spark {', '.join(MINORS)}")


def test_wheel_is_typed(wheel: Path) -> None:
    """PEP 561: the package's annotations reach users' type checkers."""
    assert "bloomparquet/py.typed" in zipfile.ZipFile(wheel).namelist()


def _venv_with(tmp: Path, pyspark_version: str) -> Path:
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, f"pyspark=={pyspark_version}"], check=True, env=USER_ENV)
    return venv


def _pyspark_version(venv: Path) -> str:
    code = "import pyspark; print(pyspark.__version__)"
    return subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], check=True, capture_output=True, text=True, env=USER_ENV
    ).stdout.strip()


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.parametrize("minor", [MINORS[0], MINORS[-1]])
def test_wheel_installs_into_an_existing_spark_and_works_there(wheel: Path, tmp_path: Path, minor: str) -> None:
    venv = _venv_with(tmp_path, PINS[minor])
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True, env=USER_ENV)
    assert _pyspark_version(venv) == PINS[minor], "installing bloomparquet changed the user's pyspark"
    jar = _run([str(venv / "bin" / "bloomparquet"), "jar"], tmp_path, USER_ENV)
    assert f"jars/spark-{minor}/bloomparquet.jar" in jar
    smoke = _run([str(venv / "bin" / "python"), str(Path(__file__).with_name("wheel_smoke.py"))], tmp_path, USER_ENV)
    seen = json.loads(smoke.strip().splitlines()[-1])
    assert seen["spark"] == PINS[minor] and seen["pruned"] > 0, seen
    # The Spark helpers need no pyarrow; the tools that read files without a JVM say which extra they need.
    python = str(venv / "bin" / "python")
    assert subprocess.run([python, "-c", "import pyarrow"], capture_output=True, env=USER_ENV).returncode != 0
    inspect = subprocess.run(
        [str(venv / "bin" / "bloomparquet"), "inspect", seen["out"]], capture_output=True, text=True, env=USER_ENV
    )
    assert inspect.returncode == 2 and "pip install 'bloomparquet[cli]'" in inspect.stderr, inspect.stderr
    assert "Traceback" not in inspect.stderr
    if minor == MINORS[-1]:
        subprocess.run([python, "-m", "pip", "install", "-q", f"{wheel}[cli]"], check=True, env=USER_ENV)
        assert _pyspark_version(venv) == PINS[minor]
        report = json.loads(
            _run([str(venv / "bin" / "bloomparquet"), "inspect", "--json", seen["out"]], tmp_path, USER_ENV)
        )
        assert report["command"] == "inspect" and report["files"], report


def test_pip_refuses_the_wheel_next_to_spark_3_4(wheel: Path, tmp_path: Path) -> None:
    """With the user's pyspark pinned to 3.4 (a requirement or a constraints file), pip's resolver refuses the
    wheel: its metadata asks for pyspark>=3.5,<4.4. Nothing is installed, nothing crashes at run time."""
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("pyspark==3.4.4\n")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "-c", str(constraints), str(wheel)],
        capture_output=True, text=True, env=USER_ENV, timeout=600,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "ResolutionImpossible" in said, said[-2000:]
    assert "pyspark==3.4.4" in said and "depends on pyspark<4.4 and >=3.5" in said, said[-2000:]
    assert "Requires-Dist: pyspark<4.4,>=3.5" in zipfile.ZipFile(wheel).read(_metadata(wheel)).decode().splitlines()


def _metadata(wheel: Path) -> str:
    return next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/METADATA"))
