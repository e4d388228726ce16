"""The test JVMs' class archive (tests/jvm_archive.py): made again when its environment or the JDK is
newer, and mapped in only where it exists. No Spark: the JVM checks an archive's fit itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from . import jvm_archive as ja


def _touch(path: Path, mtime: float) -> Path:
    path.write_bytes(b"")
    os.utime(path, (mtime, mtime))
    return path


def test_no_archive_no_flags(tmp_path: Path) -> None:
    assert ja.jvm_flags(tmp_path) == ""
    assert not ja.is_current(tmp_path)


def test_an_archive_is_mapped_in_quietly(tmp_path: Path) -> None:
    _touch(ja.archive(tmp_path), 2e9)
    assert ja.jvm_flags(tmp_path).split() == [f"-XX:SharedArchiveFile={ja.archive(tmp_path)}", "-Xlog:cds*=off"]


def test_an_archive_older_than_its_environment_or_the_jdk_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    java = _touch(tmp_path / "java", 1e9)
    monkeypatch.setattr(ja, "_java", lambda: java)
    _touch(tmp_path / ja.STAMP, 1.5e9)
    _touch(ja.archive(tmp_path), 2e9)
    assert ja.is_current(tmp_path)
    _touch(tmp_path / ja.STAMP, 2.5e9)  # the environment installed again
    assert not ja.is_current(tmp_path)
    _touch(tmp_path / ja.STAMP, 1.5e9)
    _touch(java, 2.5e9)  # another JDK
    assert not ja.is_current(tmp_path)


def test_an_environment_that_cannot_make_one_runs_without_it(tmp_path: Path, capsys) -> None:
    # The archive only saves time: the setup stage goes on, saying which environment has none.
    assert ja.main([str(tmp_path / "no-such-venv")]) == 0
    assert f"no archive for {tmp_path / 'no-such-venv'}" in capsys.readouterr().out
    assert ja.jvm_flags(tmp_path / "no-such-venv") == ""


def test_a_jvm_of_another_environment_gets_that_environments_archive(tmp_path: Path) -> None:
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    for venv in (mine, theirs):
        venv.mkdir()
        _touch(ja.archive(venv), 2e9)
    opts = f"-Dgiven=1 -XX:TieredStopAtLevel=1 {ja.jvm_flags(mine)}"
    assert ja.with_archive_of(opts, theirs) == f"-Dgiven=1 -XX:TieredStopAtLevel=1 {ja.jvm_flags(theirs)}"
    assert ja.with_archive_of(opts, tmp_path / "none") == "-Dgiven=1 -XX:TieredStopAtLevel=1"
