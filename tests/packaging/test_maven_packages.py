"""The Maven artifacts (bin/release; bin/test releases into jvm/target/release): a cluster
user's ``spark-submit --packages io.bloomparquet:bloomparquet-spark-<minor>_<scala>:<version>
--repositories file://<dir>``, on the oldest and the newest supported Spark, resolves the jar from the
local repository alone (its POM names only provided dependencies) and prunes a point miss with no
scan task."""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPO = ROOT / "jvm" / "target" / "release" / "maven"
PINS = dict(
    line.split("=", 1)
    for line in (ROOT / "project" / "spark-versions.properties").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)
MINORS = sorted((k for k in PINS if re.fullmatch(r"\d+\.\d+", k)), key=lambda m: tuple(map(int, m.split("."))))
VERSION = re.search(r'version := "([^"]+)"', (ROOT / "build.sbt").read_text()).group(1)  # type: ignore[union-attr]
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def _artifact(minor: str) -> tuple[str, Path]:
    scala = ".".join(PINS[f"scala.{minor}"].split(".")[:2])
    name = f"bloomparquet-spark-{minor}_{scala}"
    return name, REPO / "io" / "bloomparquet" / name / VERSION


def _venv(minor: str) -> Path:
    return ROOT / (".venv" if PINS["default"] == minor else f".venvs/spark-{minor}")


@pytest.fixture(scope="module", autouse=True)
def published() -> None:
    if not REPO.is_dir():
        pytest.fail(f"{REPO} missing: bin/test makes it (or: bin/release {REPO.parent})")


@pytest.mark.parametrize("minor", MINORS)
def test_every_minor_is_published_with_provided_dependencies_only(minor: str) -> None:
    name, where = _artifact(minor)
    for suffix in (".jar", "-sources.jar", ".pom"):
        assert (where / f"{name}-{VERSION}{suffix}").is_file(), (name, suffix)
    pom = ET.parse(where / f"{name}-{VERSION}.pom").getroot()
    deps = {
        d.findtext("m:artifactId", namespaces=POM_NS): (
            d.findtext("m:version", namespaces=POM_NS),
            d.findtext("m:scope", namespaces=POM_NS),
        )
        for d in pom.iterfind("m:dependencies/m:dependency", POM_NS)
    }
    scala = name.rsplit("_", 1)[1]
    assert set(deps) == {f"spark-sql_{scala}", "parquet-hadoop", "scala-library"}
    assert {scope for _, scope in deps.values()} == {"provided"}
    # The Spark the jar was compiled against: Maven's release of the minor where one is pinned, else the pyspark's.
    assert deps[f"spark-sql_{scala}"][0] == PINS.get(f"maven.{minor}", PINS[minor])
    assert deps["scala-library"][0] == PINS[f"scala.{minor}"]
    assert re.fullmatch(r"1\.\d+\.\d+", deps["parquet-hadoop"][0] or ""), deps


@pytest.mark.parametrize("minor", [MINORS[0], PINS["default"]])
def test_spark_submit_packages_prunes_a_point_miss(minor: str, tmp_path: Path) -> None:
    submit = _venv(minor) / "bin" / "spark-submit"
    if not submit.is_file():
        pytest.fail(f"{submit} missing: bin/setup --all-sparks")
    name, _ = _artifact(minor)
    python = _venv(minor) / "bin" / "python"
    home = subprocess.run(
        [str(python), "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BLOOMPARQUET_JAR")}
    env.update(SPARK_HOME=home, PYSPARK_PYTHON=str(python), PYSPARK_DRIVER_PYTHON=str(python))
    cmd = [
        str(submit),
        "--master", "local[2]",
        "--packages", f"io.bloomparquet:{name}:{VERSION}",
        "--repositories", REPO.as_uri(),
        "--conf", f"spark.jars.ivy={tmp_path / 'ivy'}",  # an empty ivy home: the jar comes from REPO
        "--conf", "spark.sql.extensions=io.bloomparquet.BloomParquetExtensions",
        "--conf", "spark.driver.extraJavaOptions=--add-modules=jdk.incubator.vector",
        str(Path(__file__).with_name("packages_smoke.py")),
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert f"io.bloomparquet#{name};{VERSION} from" in done.stderr  # ivy's resolution report
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["spark"] == PINS[minor] and seen["miss_tasks"] == 0 and seen["hit_tasks"] > 0, seen
