"""The stages of ``bin/test``: what each runs, on which Spark, and how a whole run schedules them.

    bin/test                          every stage (CI runs this)
    bin/test --list                   the stages, each with what it runs
    bin/test delta                    one stage (after the setup and build it needs)
    bin/test cross-version 3.5        a stage that takes a Spark minor, on that minor
    bin/test main -k retrofit -x      arguments after the stage (and minor) go to pytest
    bin/test main tests/test_cli_tools.py   test files too

Spark minors, Delta and Iceberg releases come from ``project/spark-versions.properties``. Suites are chosen
by directory and pytest marker (``cluster``, ``core``; pyproject.toml), never by test names.

A whole run lints, sets up and builds once, runs the default Spark's main suite on both cores, then
the other stages in three lanes side by side. Stages that start a Spark Connect server (a fixed
port) never overlap. A stage in a lane prints its output whole when it ends; the run ends with a
table of what each stage cost.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from . import jvm_archive

ROOT = Path(__file__).resolve().parents[1]
PINS = ROOT / "project" / "spark-versions.properties"
CLUSTER = "local-cluster[2,1,1024]"
# The test JVMs live minutes on 2 shared cores: C1 alone compiles what they run sooner than C2 pays back
# (suites of many short Spark jobs take a quarter to a third less time; long computations neither gain nor lose),
# and the serial collector spares them its threads. Spark's launcher adds SPARK_SUBMIT_OPTS to every driver and
# Connect server it starts; the tests give local-cluster executors the same.
TEST_JVM_FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def _pins() -> dict[str, str]:
    lines = (line.split("=", 1) for line in PINS.read_text().splitlines() if "=" in line and line[0] != "#")
    return {key.strip(): value.strip() for key, value in lines}


def _by_version(minors: Sequence[str]) -> list[str]:
    return sorted(minors, key=lambda m: tuple(int(p) for p in m.split(".")))


@dataclass(frozen=True)
class Versions:
    """The supported Spark minors and the ones Delta Lake and Apache Iceberg have a release for, oldest first."""

    default: str
    minors: list[str]
    delta: list[str]
    iceberg: list[str]

    @staticmethod
    def pinned() -> Versions:
        pins = _pins()
        minors = _by_version([k for k in pins if k[0].isdigit()])
        delta = _by_version([k.removeprefix("delta.") for k in pins if k.startswith("delta.")])
        iceberg = _by_version([k.removeprefix("iceberg.") for k in pins if k.startswith("iceberg.")])
        return Versions(pins["default"], minors, delta, iceberg)

    def venv(self, minor: str) -> Path:
        return ROOT / (".venv" if minor == self.default else f".venvs/spark-{minor}")

    def others(self) -> list[str]:
        return [m for m in self.minors if m != self.default]


@dataclass(frozen=True)
class Step:
    """One command of a stage, with the environment it adds."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Stage:
    """A named part of the test run. ``steps(minor, extra)``: its commands on that Spark minor (None: the
    stage's own), with ``extra`` pytest arguments. ``minors``: the minors it accepts (empty: none taken)."""

    name: str
    doc: str
    steps: Callable[[str | None, list[str]], list[Step]]
    minors: Callable[[Versions], list[str]] = lambda v: []
    connect: bool = False  # starts a Spark Connect server on its fixed port
    needs_all_sparks: Callable[[str | None], bool] = lambda minor: False


def _tests(default: str, extra: list[str]) -> list[str]:
    """What a stage's pytest collects: ``default`` (its directory or file) and ``extra``, or, where
    ``extra`` names test files or directories of its own, those alone."""
    named = any((ROOT / a.split("::")[0]).exists() for a in extra if not a.startswith("-"))
    return extra if named else [default, *extra]


def _pytest(versions: Versions, minor: str, args: list[str], **env: str) -> Step:
    # Each suite lists its slowest tests (what a stage costs, where to cut when CI grows), unless the caller
    # asked for a count of its own.
    given = os.environ.get("PYTEST_ADDOPTS", "")
    slowest = given if re.search(r"--durations(=|\s)", given) else f"{given} --durations=12".strip()
    # The minor's class archive (tests/jvm_archive.py), where it has one, maps Spark's classes into its JVMs.
    flags = (os.environ.get("SPARK_SUBMIT_OPTS", ""), TEST_JVM_FLAGS, jvm_archive.jvm_flags(versions.venv(minor)))
    jvm = " ".join(f for f in flags if f)
    return Step(
        [str(versions.venv(minor) / "bin" / "python"), "-m", "pytest", *args],
        {"PYTEST_ADDOPTS": slowest, "SPARK_SUBMIT_OPTS": jvm, **env},
    )


def stages(v: Versions) -> dict[str, Stage]:
    """Every stage, in the order ``--list`` shows them."""
    newest_delta, newest_iceberg, d = v.delta[-1], v.iceberg[-1], v.default
    delta_env = {"BLOOMPARQUET_DELTA": "1"}
    iceberg_env = {"BLOOMPARQUET_ICEBERG": "1"}

    def other_minor(minor: str | None) -> bool:
        return (minor or d) != d

    def delta_steps(minor: str | None, extra: list[str]) -> list[Step]:
        m = minor or newest_delta
        if m == newest_delta:
            return [_pytest(v, m, ["-q", *_tests("tests/delta", extra)], **delta_env)]
        # An older release: the tests of what Delta changed most, our extension listed first (pruning must
        # not depend on the order).
        return [
            _pytest(
                v,
                m,
                ["-q", "-m", "core", *_tests("tests/delta", extra)],
                **delta_env,
                BLOOMPARQUET_DELTA_ORDER="bloomparquet-first",
            )
        ]

    def suite(minor: str, tests: str, extra: list[str], *args: str, **env: str) -> list[Step]:
        """One pytest run of ``tests`` (or the files ``extra`` names) on ``minor``."""
        return [_pytest(v, minor, ["-q", *args, *_tests(tests, extra)], **env)]

    def iceberg_steps(minor: str | None, extra: list[str]) -> list[Step]:
        m = minor or newest_iceberg
        subset = [] if m == newest_iceberg else ["-m", "core"]
        return suite(m, "tests/iceberg", extra, *subset, **iceberg_env)

    all_stages = [
        Stage("lint", "ruff and mypy over the Python tree (bin/lint)", lambda m, x: [Step(["bin/lint"])]),
        Stage(
            "setup",
            "bin/setup --all-sparks: an environment and a jar for every supported minor, and its JVMs' class archive",
            lambda m, x: [
                Step(["bin/setup", "--all-sparks"]),
                Step(
                    [
                        str(v.venv(d) / "bin" / "python"),
                        "-m",
                        "tests.jvm_archive",
                        *(str(v.venv(mm)) for mm in v.minors),
                    ],
                    {"SPARK_SUBMIT_OPTS": TEST_JVM_FLAGS},
                ),
            ],
        ),
        Stage(
            "jvm",
            "sbt: the Scala format check, every minor's jar and the test jar",
            lambda m, x: [Step(["bin/sbt", "fmtCheck", "jvm/package", "jvm/Test/package", "packageAllSparks"])],
            needs_all_sparks=lambda m: True,
        ),
        Stage(
            "jvm-test",
            "sbt: the JVM suites (jvm/test) and the JMH benchmarks' compile (they run only via bench/jmh.sh)",
            lambda m, x: [Step(["bin/sbt", "jvm/test", "bench/compile"])],
        ),
        Stage(
            "release",
            "bin/release from a fresh clone of HEAD, verified (the packaging stage installs it)",
            lambda m, x: [Step(["bin/release", "--warm", "jvm/target/release"])],
            needs_all_sparks=lambda m: True,
        ),
        Stage(
            "main",
            f"the whole Python suite on the default Spark ({d}), two processes",
            lambda m, x: [
                _pytest(
                    v, d, ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder", "--ignore=tests/packaging", *x]
                )
            ],
        ),
        Stage(
            "packaging",
            "the release's wheel in existing Sparks and spark-submit --packages from its Maven repository",
            lambda m, x: [_pytest(v, d, ["-q", *_tests("tests/packaging", x)])],
            needs_all_sparks=lambda m: True,
        ),
        Stage(
            "cluster",
            f"the tests marked cluster with executors in JVMs of their own ({CLUSTER})",
            lambda m, x: [_pytest(v, d, ["-q", "-m", "cluster", *_tests("tests", x)], BLOOMPARQUET_MASTER=CLUSTER)],
        ),
        Stage(
            "connect",
            f"the Spark Connect suite (default {d})",
            lambda m, x: [_pytest(v, m or d, ["-q", *_tests("tests/connect", x)], BLOOMPARQUET_CONNECT="1")],
            minors=lambda vs: vs.minors,
            connect=True,
            needs_all_sparks=other_minor,
        ),
        Stage(
            "cross-version",
            "the compact suite every supported minor runs (default: each minor but the default one)",
            lambda m, x: [
                _pytest(v, mm, ["-q", *_tests("tests/test_cross_version.py", x)]) for mm in ([m] if m else v.others())
            ],
            minors=lambda vs: vs.minors,
            needs_all_sparks=lambda m: True,
        ),
        Stage(
            "delta",
            f"Delta Lake: the whole suite on its newest minor ({newest_delta}); on an older one the tests marked core",
            delta_steps,
            minors=lambda vs: vs.delta,
            needs_all_sparks=lambda m: (m or newest_delta) != d,
        ),
        Stage(
            "delta-cluster",
            f"Delta Lake's tests marked cluster, executors in JVMs of their own ({newest_delta})",
            lambda m, x: suite(
                newest_delta, "tests/delta", x, "-m", "cluster", **delta_env, BLOOMPARQUET_MASTER=CLUSTER
            ),
            needs_all_sparks=lambda m: newest_delta != d,
        ),
        Stage(
            "delta-connect",
            f"Delta Lake over Spark Connect ({newest_delta})",
            lambda m, x: suite(newest_delta, "tests/delta_connect", x, **delta_env, BLOOMPARQUET_CONNECT="1"),
            connect=True,
            needs_all_sparks=lambda m: newest_delta != d,
        ),
        Stage(
            "iceberg",
            f"Apache Iceberg: the whole suite on its newest minor ({newest_iceberg}); on an older one the tests marked core",
            iceberg_steps,
            minors=lambda vs: vs.iceberg,
            needs_all_sparks=lambda m: (m or newest_iceberg) != d,
        ),
        Stage(
            "iceberg-cluster",
            f"Apache Iceberg's tests marked cluster, executors in JVMs of their own ({newest_iceberg})",
            lambda m, x: suite(
                newest_iceberg, "tests/iceberg", x, "-m", "cluster", **iceberg_env, BLOOMPARQUET_MASTER=CLUSTER
            ),
            needs_all_sparks=lambda m: newest_iceberg != d,
        ),
        Stage(
            "iceberg-connect",
            f"Apache Iceberg over Spark Connect ({newest_iceberg})",
            lambda m, x: suite(newest_iceberg, "tests/iceberg_connect", x, **iceberg_env, BLOOMPARQUET_CONNECT="1"),
            connect=True,
            needs_all_sparks=lambda m: newest_iceberg != d,
        ),
        Stage(
            "s3a",
            "Hadoop's S3A client against a local S3 server: request counts, listings, every route (one JVM)",
            lambda m, x: [_pytest(v, d, ["-q", "-m", "not cluster", *_tests("tests/s3a", x)], BLOOMPARQUET_S3A="1")],
        ),
        Stage(
            "s3a-cluster",
            "S3A's tests marked cluster: each executor its own S3A client",
            lambda m, x: [
                _pytest(
                    v,
                    d,
                    ["-q", "-m", "cluster", *_tests("tests/s3a", x)],
                    BLOOMPARQUET_S3A="1",
                    BLOOMPARQUET_MASTER=CLUSTER,
                )
            ],
        ),
        Stage(
            "s3a-connect",
            "S3A over Spark Connect",
            lambda m, x: [
                _pytest(v, d, ["-q", *_tests("tests/s3a_connect", x)], BLOOMPARQUET_S3A="1", BLOOMPARQUET_CONNECT="1")
            ],
            connect=True,
        ),
    ]
    return {s.name: s for s in all_stages}


@dataclass(frozen=True)
class Run:
    """A stage on one minor (None: the stage's own)."""

    stage: str
    minor: str | None = None

    def label(self) -> str:
        return self.stage if self.minor is None else f"{self.stage} {self.minor}"


def whole_run(v: Versions) -> tuple[list[Run], list[list[Run]]]:
    """The stages one after the other, then three lanes side by side. The suites in lanes wait on Spark
    and py4j more than they compute; the lanes are balanced by what each stage cost in a whole run."""
    oldest, newest_other = v.minors[0], v.others()[-1]
    middle = [m for m in v.others() if m not in (oldest, newest_other)]
    # The JVM suites start Spark under munit's 30 s timeout per test: alone, not beside the lanes.
    serial = [Run(s) for s in ("lint", "setup", "jvm", "jvm-test", "main")]
    lanes = [
        [
            Run("delta"),
            *(Run("cross-version", m) for m in middle),
            *(Run("iceberg", m) for m in v.iceberg[:-1]),
            Run("s3a-cluster"),
        ],
        [
            Run("cluster"),
            Run("connect"),
            Run("delta-connect"),
            Run("cross-version", oldest),
            Run("connect", oldest),
            Run("s3a"),
            Run("delta-cluster"),
            Run("iceberg-cluster"),
            Run("iceberg"),
        ],
        [
            Run("release"),
            Run("packaging"),
            Run("cross-version", newest_other),
            *([Run("delta", v.delta[0])] if len(v.delta) > 1 else []),
            Run("iceberg-connect"),
            Run("s3a-connect"),
        ],
    ]
    return serial, lanes


class Runner:
    """Runs stages and keeps what each cost. Stages run side by side write into logs of their own, each
    printed whole when its stage ends."""

    def __init__(self, v: Versions) -> None:
        self.v, self.stages, self.start = v, stages(v), time.monotonic()
        self.costs: list[tuple[str, float, int]] = []
        self.out = threading.Lock()
        self.connect = threading.Lock()

    def stamp(self, text: str) -> None:
        t = int(time.monotonic() - self.start)
        with self.out:
            print(f"bin/test: [{t // 60}m{t % 60}s] {text}", flush=True)

    def run(self, run: Run, extra: list[str] | None = None, stream: bool = True) -> int:
        """Runs ``run``; its output goes straight out when ``stream``, else into a log printed whole at its end."""
        stage = self.stages[run.stage]
        lock = self.connect if stage.connect else None
        if lock:
            lock.acquire()
        try:
            self.stamp(f"{run.label()}: {stage.doc}" + (f"; here on Spark {run.minor}" if run.minor else ""))
            began = time.monotonic()
            if stream:
                sys.stdout.flush()
                rc = _steps(stage.steps(run.minor, extra or []), sys.stdout)
            else:
                with tempfile.TemporaryFile("w+") as log:
                    rc = _steps(stage.steps(run.minor, extra or []), log)
                    log.seek(0)
                    with self.out:
                        sys.stdout.write(log.read())
                        sys.stdout.flush()
            took = time.monotonic() - began
            self.costs.append((run.label(), took, rc))
            self.stamp(f"{run.label()}: {'passed' if rc == 0 else f'FAILED (exit {rc})'} in {took:.0f} s")
            return rc
        finally:
            if lock:
                lock.release()

    def lanes(self, lanes: list[list[Run]]) -> list[str]:
        """Runs each lane's stages in turn, the lanes side by side; the stages that failed."""
        failed: list[str] = []

        def lane(runs: list[Run]) -> None:
            failed.extend(r.label() for r in runs if self.run(r, stream=False) != 0)

        threads = [threading.Thread(target=lane, args=(runs,)) for runs in lanes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return failed

    def table(self) -> None:
        with self.out:
            print("bin/test: what each stage cost (wall seconds; lanes run side by side)")
            for label, took, rc in self.costs:
                print(f"  {label:<22} {took:7.0f}  {'ok' if rc == 0 else 'FAILED'}")
            total = int(time.monotonic() - self.start)
            print(f"  {'whole run':<22} {total:7d}")


def _steps(steps: list[Step], out: TextIO) -> int:
    """Runs ``steps`` in turn into ``out`` until one fails; its exit code (pytest's 5, no test collected: 1)."""
    for step in steps:
        out.write(f"$ {' '.join(step.argv)}\n")
        out.flush()
        rc = subprocess.call(step.argv, cwd=ROOT, env={**os.environ, **step.env}, stdout=out, stderr=subprocess.STDOUT)
        if rc == 5:
            out.write("bin/test: pytest collected no tests; that is a failure here\n")
            rc = 1
        if rc:
            return rc
    return 0


def _setup(all_sparks: bool) -> None:
    subprocess.check_call(["bin/setup", "--all-sparks"] if all_sparks else ["bin/setup"], cwd=ROOT)


def _list(v: Versions) -> None:
    print("bin/test stages (bin/test STAGE [MINOR] [PYTEST ARGS...]):")
    for s in stages(v).values():
        minors = s.minors(v)
        print(f"  {s.name + (' [' + '|'.join(minors) + ']' if minors else ''):<40} {s.doc}")
    serial, lanes = whole_run(v)
    print("bin/test with no stage runs, in turn:", ", ".join(r.label() for r in serial))
    print("then, side by side, three lanes of stages in turn:")
    for runs in lanes:
        print("  " + ", ".join(r.label() for r in runs))


def main(argv: list[str]) -> int:
    v = Versions.pinned()
    known = stages(v)
    if argv[:1] == ["--list"]:
        _list(v)
        return 0
    if argv and not argv[0].startswith("-"):
        if argv[0] not in known:
            print(f"bin/test: no stage {argv[0]!r}; bin/test --list shows them", file=sys.stderr)
            return 2
        stage, rest = known[argv[0]], argv[1:]
        # A minor looks like one ("3.5"); anything else is for pytest (a test file, -k ...).
        minor = rest.pop(0) if rest and re.fullmatch(r"\d+\.\d+", rest[0]) else None
        if minor is not None and minor not in stage.minors(v):
            takes = ", ".join(stage.minors(v)) or "none"
            print(f"bin/test: stage {stage.name} takes no minor {minor!r} (it takes: {takes})", file=sys.stderr)
            return 2
        if stage.name not in ("lint", "setup"):  # the rest need the environments and jars
            _setup(stage.needs_all_sparks(minor))
        return Runner(v).run(Run(stage.name, minor), rest)
    return whole(v, argv)


def whole(v: Versions, main_args: list[str]) -> int:
    """Every stage: the serial ones stop the run at the first failure (later ones need their output);
    the lanes run on and report every failure."""
    runner = Runner(v)
    serial, lanes = whole_run(v)
    for run in serial:
        rc = runner.run(run, main_args if run.stage == "main" else None)
        if rc:
            runner.table()
            return rc
    failed = runner.lanes(lanes)
    runner.table()
    if failed:
        print(f"bin/test: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
