"""bloomparquet on a real cluster manager: a Spark standalone master and worker started here on
localhost from the default minor's pyspark, then (a) a PySpark application in client mode that loads
bloomparquet with ``configure`` (executors in the worker's JVMs), and (b) a JVM application submitted
with ``spark-submit --deploy-mode cluster``, its driver started by the worker (Spark runs Python
applications on standalone in client mode only), with the jar of the release's Maven repository:
resolved with ``--packages`` by the driver, and given with ``--jars`` for the executors (on standalone
a cluster-mode driver resolves packages onto its own class path only, SPARK-12559). Both prune a
point miss with no scan task and return the rows Spark's ``parquet`` returns with pushdown off. The
master and worker are stopped by the test."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from maven_release import PINS, REPO, ROOT, VERSION

TEST_JAR = ROOT / "jvm" / "target" / "bloomparquet-tests.jar"
MINOR = PINS["default"]
ARTIFACT = f"bloomparquet-spark-{MINOR}_{'.'.join(PINS[f'scala.{MINOR}'].split('.')[:2])}"
HOME = Path(subprocess.run([sys.executable, "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
                           capture_output=True, text=True, check=True).stdout.strip())  # fmt: skip
VECTOR = "--add-modules=jdk.incubator.vector"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BLOOMPARQUET_JAR", "PYSPARK_SUBMIT_ARGS")}
    env.update(SPARK_HOME=str(HOME), PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable, **extra)
    return env


def _master_state(ui: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{ui}/json/", timeout=5) as r:
        return json.load(r)


WORK: list[Path] = []  # the worker's directory: drivers it starts log there


def _driver_logs(tail: int = 3000) -> str:
    return "\n".join(f"{p}:\n{p.read_text()[-tail:]}" for w in WORK for p in sorted(w.glob("driver-*/stderr")))


@pytest.fixture(scope="module")
def master(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A standalone master and one worker (2 cores, 3 GiB) on localhost; the master's URL."""
    tmp = tmp_path_factory.mktemp("standalone")
    WORK.append(tmp / "work")
    port, ui, worker_ui = _free_port(), _free_port(), _free_port()
    spark_class = str(HOME / "bin" / "spark-class")
    logs = [(tmp / "master.log").open("w"), (tmp / "worker.log").open("w")]
    env = _env(SPARK_LOG_DIR=str(tmp), SPARK_WORKER_DIR=str(tmp / "work"))
    daemons = [
        subprocess.Popen(
            [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
             "--webui-port", str(ui)],
            stdout=logs[0], stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
    ]  # fmt: skip
    url = f"spark://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                _master_state(ui)
                break
            except OSError:
                if time.monotonic() > deadline or daemons[0].poll() is not None:
                    pytest.fail(f"the standalone master did not start:\n{(tmp / 'master.log').read_text()[-3000:]}")
                time.sleep(1)
        daemons.append(
            subprocess.Popen(
                [spark_class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "2",
                 "--memory", "3g", "--webui-port", str(worker_ui), "--work-dir", str(tmp / "work"), url],
                stdout=logs[1], stderr=subprocess.STDOUT, env=env, start_new_session=True,
            )
        )  # fmt: skip
        while not [w for w in _master_state(ui).get("workers", []) if w.get("state") == "ALIVE"]:
            if time.monotonic() > deadline or daemons[1].poll() is not None:
                pytest.fail(f"no worker registered:\n{(tmp / 'worker.log').read_text()[-3000:]}")
            time.sleep(1)
        yield url
    finally:
        # The worker first: it stops the drivers and executors it started.
        for daemon in reversed(daemons):
            try:
                os.killpg(daemon.pid, signal.SIGTERM)
                daemon.wait(timeout=60)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(daemon.pid, signal.SIGKILL)
        for log in logs:
            log.close()


def test_pyspark_client_mode_with_configure(master: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("standalone_client.py")), master, str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["spark"] == PINS[MINOR] and seen["executors"] >= 1, seen
    assert seen["miss_tasks"] == 0 and seen["pruned"] == seen["row_groups"] > 1, seen
    assert seen["hit"] == ["e1234"] and seen["same_as_parquet"], seen


def test_jvm_app_in_cluster_deploy_mode_with_packages(master: str, tmp_path: Path) -> None:
    if not (REPO / "io" / "bloomparquet" / ARTIFACT / VERSION).is_dir():
        pytest.fail(f"{REPO} lacks {ARTIFACT} {VERSION}: bin/test makes it (or: bin/release {REPO.parent})")
    if not TEST_JAR.is_file():
        pytest.fail(f"{TEST_JAR} missing: bin/sbt jvm/Test/package")
    result = tmp_path / "result.json"
    cmd = [
        str(HOME / "bin" / "spark-submit"),
        "--master", master,
        "--deploy-mode", "cluster",
        "--class", "io.bloomparquet.testing.LookupApp",
        "--packages", f"io.bloomparquet:{ARTIFACT}:{VERSION}",
        "--repositories", REPO.as_uri(),
        "--jars", (REPO / "io" / "bloomparquet" / ARTIFACT / VERSION / f"{ARTIFACT}-{VERSION}.jar").as_uri(),
        "--conf", f"spark.jars.ivy={tmp_path / 'ivy'}",  # an empty ivy home: the jar comes from the release
        "--conf", "spark.sql.extensions=io.bloomparquet.BloomParquetExtensions",
        "--conf", f"spark.driver.extraJavaOptions={VECTOR}",
        "--conf", f"spark.executor.extraJavaOptions={VECTOR}",
        "--conf", "spark.standalone.submit.waitAppCompletion=true",
        "--driver-memory", "1g", "--executor-memory", "1g", "--total-executor-cores", "1",
        str(TEST_JAR), str(tmp_path / "data"), str(result),
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=900)
    assert done.returncode == 0 and result.is_file(), f"{done.stderr[-3000:]}\n{_driver_logs()}"
    assert f"io.bloomparquet#{ARTIFACT};{VERSION} from" in _driver_logs(tail=10**7)  # ivy's, in the driver
    seen = json.loads(result.read_text())
    assert seen["spark"] == PINS[MINOR] and "io.bloomparquet.BloomParquetExtensions" in seen["extensions"], seen
    assert seen["miss_rows"] == 0 and seen["miss_tasks"] == 0 and seen["pruned"] == seen["row_groups"] > 1, seen
    assert seen["hit"] == "e1234" and seen["same_as_parquet"], seen
