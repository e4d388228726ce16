"""How the Delta Lake integration is loaded, the ways users load Delta and bloomparquet: the
integration's classes are in bloomparquet's jar and loaded by ordinary class loading through the
jar's loader, so Delta prunes wherever both come the same way (spark-submit ``--packages`` from
the release's Maven repository, ``--jars``, the wheel beside delta-spark's
``configure_spark_with_delta_pip``), and the conf is refused, saying what to do, where the jar sits
above Delta's loader (``spark.driver.extraClassPath`` with Delta through ``--packages``). On the
newest Spark minor Delta Lake has a release for; Delta's jars come from Maven Central through
Spark's own package resolution, into an Ivy home of this module's."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from maven_release import PINS, REPO, ROOT, USER_ENV, VERSION, artifact, newest_minor, spark_submit

SMOKE = Path(__file__).with_name("delta_smoke.py")
MINOR = newest_minor("delta")
DELTA = f"io.delta:delta-spark_{MINOR}_2.13:{PINS[f'delta.{MINOR}']}"
EXTENSIONS = "io.delta.sql.DeltaSparkSessionExtension,io.bloomparquet.BloomParquetExtensions"
CATALOG = "org.apache.spark.sql.delta.catalog.DeltaCatalog"


def _submit(ivy: Path, cwd: Path, *args: str) -> dict[str, object]:
    """What delta_smoke.py saw, run by ``spark-submit`` with Delta's and our extensions and ``args``."""
    conf = {
        "spark.jars.ivy": str(ivy),
        "spark.sql.extensions": EXTENSIONS,
        "spark.sql.catalog.spark_catalog": CATALOG,
        "spark.driver.extraJavaOptions": "--add-modules=jdk.incubator.vector",
    }
    confs = [a for k, v in conf.items() for a in ("--conf", f"{k}={v}")]
    done = spark_submit(MINOR, ["--master", "local[2]", *confs, *args, str(SMOKE)], cwd, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _pruned(seen: dict[str, object]) -> None:
    assert seen["spark"] == PINS[MINOR] and "refused" not in seen, seen
    # 4 files, filters at FPP 1e-4: each keeps the odd key with probability 1e-4.
    assert seen["bloomFilesTotal"] == 4 and seen["bloomFilesPruned"] >= 3, seen


def test_packages_both(ivy: Path, tmp_path: Path) -> None:
    name, _ = artifact(MINOR)
    seen = _submit(
        ivy, tmp_path, "--packages", f"io.bloomparquet:{name}:{VERSION},{DELTA}", "--repositories", REPO.as_uri()
    )
    _pruned(seen)


def test_jars_both(ivy: Path, tmp_path: Path) -> None:
    name, where = artifact(MINOR)
    delta = sorted(str(j) for j in (ivy / "jars").glob("*.jar") if "bloomparquet" not in j.name)
    if not delta:  # Delta's jars, as --packages resolves them
        _submit(ivy, tmp_path, "--packages", DELTA)
        delta = sorted(str(j) for j in (ivy / "jars").glob("*.jar") if "bloomparquet" not in j.name)
    _pruned(_submit(ivy, tmp_path, "--jars", ",".join([str(where / f"{name}-{VERSION}.jar"), *delta])))


def test_jar_above_deltas_loader_is_refused_saying_how_to_load_both(ivy: Path, tmp_path: Path) -> None:
    name, where = artifact(MINOR)
    jar = str(where / f"{name}-{VERSION}.jar")
    seen = _submit(ivy, tmp_path, "--driver-class-path", jar, "--jars", jar, "--packages", DELTA)
    assert "spark.bloomparquet.delta.enabled=true is refused" in str(seen.get("refused")), seen
    assert "give both the same way" in str(seen["refused"]), seen


def test_wheel_with_configure_spark_with_delta_pip(tmp_path: Path) -> None:
    """A pip user's session: pyspark, delta-spark (its own pyspark pin set aside) and bloomparquet's wheel."""
    wheels = sorted((ROOT / "jvm" / "target" / "release" / "python").glob("bloomparquet-*.whl"))
    assert wheels, "no wheel: bin/test's release stage makes it"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, f"pyspark=={PINS[MINOR]}", str(wheels[-1]), "importlib_metadata"], check=True, env=USER_ENV)
    subprocess.run([*pip, "--no-deps", f"delta-spark=={PINS[f'delta.{MINOR}']}"], check=True, env=USER_ENV)
    script = tmp_path / "pip_user.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(SMOKE.parent)!r})\n"
        "from delta import configure_spark_with_delta_pip\n"
        "from pyspark.sql import SparkSession\n"
        "import bloomparquet as bp\n"
        "import delta_smoke\n"
        "builder = configure_spark_with_delta_pip(SparkSession.builder.master('local[2]'))\n"
        f"builder = bp.configure(builder, **{{'spark.sql.extensions': 'io.delta.sql.DeltaSparkSessionExtension', "
        f"'spark.sql.catalog.spark_catalog': {CATALOG!r}}})\n"
        "sys.exit(delta_smoke.main(builder))\n"
    )
    done = subprocess.run(
        [str(venv / "bin" / "python"), str(script)], capture_output=True, text=True, cwd=tmp_path, env=USER_ENV,
        timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    _pruned(json.loads(done.stdout.strip().splitlines()[-1]))
    assert re.search(rf"io\.delta#delta-spark_{re.escape(MINOR)}_2\.13;", done.stderr), done.stderr[-2000:]
