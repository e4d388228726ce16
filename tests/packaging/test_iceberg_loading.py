"""How Apache Iceberg reads are pruned the ways users load Iceberg's Spark runtime and bloomparquet:
spark-submit ``--packages`` of both (bloomparquet from the release's Maven repository, Iceberg's
runtime from Maven Central through Spark's own package resolution, into an Ivy home of this module's),
and ``--jars`` of both. The integration's classes are in bloomparquet's jar, loaded by ordinary class
loading: a point miss plans no task. On the newest Spark minor Iceberg has a release for."""

from __future__ import annotations

import json
from pathlib import Path

from maven_release import PINS, REPO, VERSION, artifact, newest_minor, spark_submit

SMOKE = Path(__file__).with_name("iceberg_smoke.py")
MINOR = newest_minor("iceberg")
SCALA = ".".join(PINS[f"scala.{MINOR}"].split(".")[:2])
ICEBERG = f"org.apache.iceberg:iceberg-spark-runtime-{MINOR}_{SCALA}:{PINS[f'iceberg.{MINOR}']}"
EXTENSIONS = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions,io.bloomparquet.BloomParquetExtensions"


def _submit(ivy: Path, cwd: Path, *args: str) -> dict[str, dict[str, int]]:
    """What iceberg_smoke.py saw, run by ``spark-submit`` with Iceberg's and our extensions and ``args``."""
    conf = {
        "spark.jars.ivy": str(ivy),
        "spark.sql.extensions": EXTENSIONS,
        "spark.sql.catalog.lake": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.lake.type": "hadoop",
        "spark.sql.catalog.lake.warehouse": str(cwd / "warehouse"),
        "spark.driver.extraJavaOptions": "--add-modules=jdk.incubator.vector",
    }
    confs = [a for k, v in conf.items() for a in ("--conf", f"{k}={v}")]
    done = spark_submit(MINOR, ["--master", "local[2]", *confs, *args, str(SMOKE)], cwd, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _pruned(seen: dict) -> None:
    assert seen["spark"] == PINS[MINOR], seen
    # 4 files (Iceberg's splits; it packs small ones into one task), filters at FPP 1e-4: each keeps the odd
    # key with probability 1e-4 a row group.
    alone, on = seen["alone"], seen["on"]
    assert alone["numSplits"] == 4 and alone["tasks"] >= 1 and on["numSplits"] == 0 and on["tasks"] == 0, json.dumps(
        seen
    )


def _packages_both(ivy: Path, cwd: Path) -> dict:
    name, _ = artifact(MINOR)
    return _submit(
        ivy, cwd, "--packages", f"io.bloomparquet:{name}:{VERSION},{ICEBERG}", "--repositories", REPO.as_uri()
    )


def test_packages_both(ivy: Path, tmp_path: Path) -> None:
    _pruned(_packages_both(ivy, tmp_path))


def test_jars_both(ivy: Path, tmp_path: Path) -> None:
    name, where = artifact(MINOR)
    if not any((ivy / "jars").glob("*iceberg-spark-runtime*.jar")):  # Iceberg's runtime, as --packages resolves it
        _packages_both(ivy, tmp_path / "resolve")
    runtime = sorted(str(j) for j in (ivy / "jars").glob("*iceberg-spark-runtime*.jar"))
    assert runtime, list((ivy / "jars").iterdir())
    _pruned(_submit(ivy, tmp_path, "--jars", ",".join([str(where / f"{name}-{VERSION}.jar"), *runtime])))
