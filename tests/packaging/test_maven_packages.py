"""The Maven artifacts (bin/release; bin/test releases into jvm/target/release): a cluster
user's ``spark-submit --packages io.bloomparquet:bloomparquet-spark-<minor>_<scala>:<version>
--repositories file://<dir>``, on the oldest and the newest supported Spark, resolves the jar from the
local repository alone (its POM names only provided dependencies) and prunes a point miss with no
scan task."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from maven_release import MINORS, PINS, REPO, VERSION, artifact, spark_submit, venv

POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


@pytest.fixture(scope="module", autouse=True)
def published() -> None:
    if not REPO.is_dir():
        pytest.fail(f"{REPO} missing: bin/test makes it (or: bin/release {REPO.parent})")


@pytest.mark.parametrize("minor", MINORS)
def test_every_minor_is_published_with_provided_dependencies_only(minor: str) -> None:
    name, where = artifact(minor)
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
    submit = venv(minor) / "bin" / "spark-submit"
    if not submit.is_file():
        pytest.fail(f"{submit} missing: bin/setup --all-sparks")
    name, _ = artifact(minor)
    args = [
        "--master", "local[2]",
        "--packages", f"io.bloomparquet:{name}:{VERSION}",
        "--repositories", REPO.as_uri(),
        "--conf", f"spark.jars.ivy={tmp_path / 'ivy'}",  # an empty ivy home: the jar comes from REPO
        "--conf", "spark.sql.extensions=io.bloomparquet.BloomParquetExtensions",
        "--conf", "spark.driver.extraJavaOptions=--add-modules=jdk.incubator.vector",
        str(Path(__file__).with_name("packages_smoke.py")),
    ]  # fmt: skip
    done = spark_submit(minor, args, tmp_path)
    assert done.returncode == 0, done.stderr[-4000:]
    assert f"io.bloomparquet#{name};{VERSION} from" in done.stderr  # ivy's resolution report
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["spark"] == PINS[minor] and seen["miss_tasks"] == 0 and seen["hit_tasks"] > 0, seen
