"""bin/test's stages (tests/stages.py): a whole run runs every stage on every minor it is meant for,
and what a user types after a stage reaches pytest as they meant it. No Spark: the stages' commands
are built, not run."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import stages as st
from .jvm_archive import NAME

V = st.Versions.pinned()
STAGES = st.stages(V)


def _argv(stage: str, minor: str | None, extra: list[str]) -> list[list[str]]:
    return [step.argv[3:] for step in STAGES[stage].steps(minor, extra)]  # past "python -m pytest"


def test_versions_come_from_the_pins_file() -> None:
    assert V.default in V.minors
    assert V.delta and set(V.delta) <= set(V.minors)
    assert V.minors == sorted(V.minors, key=lambda m: tuple(map(int, m.split("."))))


def test_a_whole_run_runs_every_stage_and_each_minor_stage_on_its_minors() -> None:
    serial, lanes = st.whole_run(V)
    runs = serial + [r for lane in lanes for r in lane]
    assert len(runs) == len(set(runs)), "a stage runs twice"
    assert {r.stage for r in runs} == set(STAGES)
    # cross-version and delta with no minor take their own (every other minor; the newest Delta). Delta
    # runs on its newest minor and its oldest (another Delta release); the minors between have the newest's.
    covered = {m for r in runs if r.stage == "cross-version" for m in ([r.minor] if r.minor else V.others())}
    assert covered == set(V.others())
    assert {r.minor or V.delta[-1] for r in runs if r.stage == "delta"} == {V.delta[0], V.delta[-1]}
    assert {r.minor or V.default for r in runs if r.stage == "connect"} >= {V.default, V.minors[0]}


def test_every_suite_gives_spark_the_test_jvm_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    # Spark's launcher adds SPARK_SUBMIT_OPTS to the JVMs it starts; flags already there are kept.
    # A minor's class archive, where it has one, is mapped in by its JVMs alone.
    monkeypatch.setenv("SPARK_SUBMIT_OPTS", "-Dgiven=1")
    for name, stage in st.stages(V).items():
        for step in stage.steps(None, []):
            if "pytest" in step.argv:
                venv = Path(step.argv[0]).parents[1]
                archived = f" -XX:SharedArchiveFile={venv / NAME} -Xlog:cds*=off" if (venv / NAME).is_file() else ""
                assert step.env["SPARK_SUBMIT_OPTS"] == f"-Dgiven=1 {st.TEST_JVM_FLAGS}{archived}", name


def test_the_setup_stage_archives_every_minors_classes() -> None:
    (_, archive) = STAGES["setup"].steps(None, [])
    assert archive.argv[1:3] == ["-m", "tests.jvm_archive"]
    assert archive.argv[3:] == [str(V.venv(m)) for m in V.minors]
    assert archive.env["SPARK_SUBMIT_OPTS"] == st.TEST_JVM_FLAGS


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        ("", "--durations=12"),
        ("-x", "-x --durations=12"),
        ("--durations=0 --durations-min=0.5", "--durations=0 --durations-min=0.5"),
        ("--durations 5", "--durations 5"),
    ],
)
def test_a_callers_durations_are_kept(monkeypatch: pytest.MonkeyPatch, given: str, sent: str) -> None:
    # Every suite lists its 12 slowest tests unless the caller asked for another count.
    monkeypatch.setenv("PYTEST_ADDOPTS", given)
    (step,) = st.stages(V)["main"].steps(None, [])
    assert step.env["PYTEST_ADDOPTS"] == sent


def test_connect_stages_are_marked_so_none_overlap() -> None:
    # Each starts a Spark Connect server on its fixed port: the runner lets one run at a time.
    for name, stage in STAGES.items():
        assert stage.connect == ("connect" in name), name


@pytest.mark.parametrize("stage", ["delta", "cluster", "connect", "s3a", "packaging", "cross-version"])
def test_test_files_after_a_stage_replace_its_own(stage: str) -> None:
    minor = V.minors[0] if stage == "cross-version" else None
    named = _argv(stage, minor, ["tests/test_stages.py::test_versions_come_from_the_pins_file", "-x"])
    assert all("tests/test_stages.py::test_versions_come_from_the_pins_file" in a for a in named)
    assert not any(a in argv for argv in named for a in ("tests", "tests/delta", "tests/connect", "tests/s3a"))
    # Markers that choose a stage's tests stay: the file is run with the stage's selection.
    if stage == "cluster":
        assert named[0][:3] == ["-q", "-m", "cluster"]


def test_pytest_options_after_a_stage_keep_its_own_tests() -> None:
    assert _argv("delta", None, ["-k", "retrofit"]) == [["-q", "tests/delta", "-k", "retrofit"]]
    assert _argv("delta", V.delta[0], ["-x"]) == [["-q", "-m", "core", "tests/delta", "-x"]]


def test_a_stage_is_named_and_a_minor_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert st.main(["no-such-stage"]) == 2
    assert "bin/test --list" in capsys.readouterr().err
    assert st.main(["lint", V.default]) == 2  # lint takes no minor
    assert "takes no minor" in capsys.readouterr().err
    assert st.main(["--list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in STAGES)
