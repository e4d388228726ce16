"""Every command of ``python -m bloomparquet`` that reads Parquet files, run as a subprocess,
as text and ``--json``, over every file of a corpus (tests/cli_corpus.py: pyarrow, DuckDB,
Spark and our writer; nested and nulls-only columns; encrypted files; damaged files). Each
run ends with the exit status the file calls for (0; 1 for a ``verify`` finding; 2 for bad
input), never with a traceback or a signal (pyarrow aborts the process on an encrypted column);
an exit-2 run prints one line naming the file and the cause, and nothing on stdout."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from bloomparquet import cli
from bloomparquet.reference import _rawfooter as rawfooter

from . import _python_m
from .cli_corpus import VARIANTS, CorpusFile, local_corpus, spark_corpus

pytestmark = pytest.mark.long

# The commands that read Parquet files: every one is run over the corpus.
FILE_COMMANDS = {"inspect", "probe", "verify", "advise"}
# The others take no Parquet path (demo writes its own data; kernel and jar print what the JVM
# uses) or read or rewrite files in a Spark job (retrofit: its refusals are tested in test_retrofit.py
# and test_encryption.py; digest skips files it cannot read: tests/test_digest_build.py).
OTHER_COMMANDS = {"retrofit", "digest", "demo", "kernel", "jar"}

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python")}
# Two at a time: the machine may have no more cores, and each run is mostly pyarrow's import.
_WORKERS = 2


@pytest.fixture(scope="module")
def local_files(tmp_path_factory) -> list[CorpusFile]:
    return local_corpus(tmp_path_factory.mktemp("cli-corpus-local"))


@pytest.fixture(scope="module")
def spark_files(spark, tmp_path_factory) -> list[CorpusFile]:
    return spark_corpus(spark, tmp_path_factory.mktemp("cli-corpus-spark"))


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = cli._parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_every_command_is_covered() -> None:
    """A new command fails here until it is run over the corpus or said not to read Parquet files."""
    commands = _subcommands()
    assert set(commands) == FILE_COMMANDS | OTHER_COMMANDS
    for name in FILE_COMMANDS:
        options = {o for a in commands[name]._actions for o in a.option_strings}
        assert "--json" in options, name
        runs = {v.replace(name, "", 1).strip() for v in VARIANTS if v.split()[0] == name}
        assert any("--json" not in r for r in runs) and any("--json" in r for r in runs), name


def _argv(f: CorpusFile, variant: str) -> list[str]:
    words = variant.split()
    if words[0] == "probe":
        words += [f.column, f.value]
    elif f.columns is not None:
        words += ["--columns", f.columns]
    return [sys.executable, "-m", "bloomparquet", *words[:1], str(f.path), *words[1:]]


def _problems(f: CorpusFile, variant: str, run: subprocess.CompletedProcess) -> list[str]:
    want, code, err = f.exit_for(variant), run.returncode, run.stderr
    found = []
    if code < 0:
        found.append(f"killed by signal {-code}")
    if "Traceback" in err:
        found.append("a traceback")
    if code != want:
        found.append(f"exit {code}, want {want}")
    if code == 2:
        lines = err.splitlines()
        if len(lines) != 1 or not err.startswith("bloomparquet: ") or str(f.path) not in err:
            found.append("not one line naming the file")
        if f.message not in err:
            found.append(f"stderr lacks {f.message!r}")
        if run.stdout:
            found.append("a report on stdout as well")
    elif code in (0, 1):
        if "--json" in variant:
            try:
                report = json.loads(run.stdout)
                found += _report_problems(variant, report)
            except json.JSONDecodeError:
                found.append("stdout is not JSON")
        elif not run.stdout.strip():
            found.append("no report")
    return [f"{f.name} | {variant}: {p}\n    stderr: {err[-600:]!r}" for p in found]


def _report_problems(variant: str, report: dict) -> list[str]:
    """What a successful report says it could not do: every nested leaf must be followed."""
    if report.get("command") != variant.split()[0]:
        return ["JSON of another command"]
    if variant.startswith("verify --rebuild"):
        return [f"verify note: {n}" for f in report["files"] for n in f["notes"]]
    if variant.startswith("advise"):
        return [
            f"advise: {c['column']}: {c['reason']}"
            for c in report["columns"]
            if not c["reason"] or c["reason"].startswith("values not readable")
        ]
    return []


# Each run forks from a server that imported the tools and pyarrow once (a fresh interpreter per run
# spent most of its second importing them); test_python_m_is_what_the_server_runs checks it is the same.
_SERVER = multiprocessing.get_context("forkserver")
_SERVER.set_forkserver_preload(["tests._python_m", "bloomparquet.cli", "pyarrow.parquet"])


def _run(argv: tuple[str, ...]) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as tmp:
        out, err, status = (os.path.join(tmp, name) for name in ("out", "err", "status"))
        for name in (out, err, status):
            open(name, "w").close()
        child = _SERVER.Process(target=_python_m.run, args=(argv[3:], out, err, status))
        child.start()
        child.join(300)
        if child.is_alive():
            child.kill()
            child.join()
        # The status the run asked for (sys.exit), else what the process ended with (a traceback, a kill).
        asked = Path(status).read_text()
        code = int(asked) if asked else child.exitcode
        return subprocess.CompletedProcess(argv, code, Path(out).read_text(), Path(err).read_text())


def _check(files: Sequence[CorpusFile]) -> None:
    jobs = [(f, v) for f in files for v in VARIANTS]
    argvs = list(dict.fromkeys(tuple(_argv(*job)) for job in jobs))  # a file probed twice is inspected once
    with ThreadPoolExecutor(_WORKERS) as pool:
        runs = dict(zip(argvs, pool.map(_run, argvs)))
    problems = [p for job in jobs for p in _problems(*job, runs[tuple(_argv(*job))])]
    assert not problems, f"{len(problems)} of {len(jobs)} runs:\n" + "\n".join(problems)


def test_local_corpus(local_files: list[CorpusFile]) -> None:
    _check(local_files)


def test_python_m_is_what_the_server_runs(local_files: list[CorpusFile]) -> None:
    """A real ``python -m bloomparquet`` prints and exits as a run forked from the server: for a
    run of each exit status the corpus calls for (a report, a finding, one line refusing bad
    input), as text and as JSON."""
    firsts: dict[tuple[int, bool], tuple[str, ...]] = {}
    for f in local_files:
        for variant in VARIANTS:
            firsts.setdefault((f.exit_for(variant), "--json" in variant), tuple(_argv(f, variant)))
    assert {code for code, _ in firsts} >= {0, 1, 2}, firsts
    for argv in firsts.values():
        real = subprocess.run(argv, capture_output=True, text=True, env=ENV, timeout=300)
        forked = _run(argv)
        assert (forked.returncode, forked.stdout, forked.stderr) == (real.returncode, real.stdout, real.stderr), argv


@pytest.mark.spark
def test_spark_corpus(spark_files: list[CorpusFile]) -> None:
    _check(spark_files)


def _check_leaf_paths(files: Sequence[CorpusFile]) -> int:
    checked = 0
    for f in {f.path: f for f in files if not f.exits and f.columns is None}.values():
        data = f.path.read_bytes()
        length = int.from_bytes(data[-8:-4], "little")
        meta = rawfooter.decode(data[len(data) - 8 - length : -8])
        schema = pq.ParquetFile(f.path).metadata.schema
        assert rawfooter.leaf_paths(meta) == [schema.column(i).path for i in range(len(schema))], f.name
        assert rawfooter.encrypted_columns(meta) == []
        checked += 1
    return checked


def test_leaf_paths_from_our_footer_decoder_match_pyarrow(local_files: list[CorpusFile]) -> None:
    """Our own decoding of the schema (which names the columns of encrypted files, before pyarrow
    sees them) gives the dotted leaf paths pyarrow gives: lists, maps, lists of structs."""
    assert _check_leaf_paths(local_files) >= 4


@pytest.mark.spark
def test_leaf_paths_of_spark_files(spark_files: list[CorpusFile]) -> None:
    """... and for Spark's files, legacy 2-level lists included."""
    assert _check_leaf_paths(spark_files) >= 5


def test_advise_on_nested_leaves(local_files: list[CorpusFile], capsys) -> None:
    """advise names every leaf by its dotted path: leaves inside a list or map are measured but not
    recommended (readers and retrofit use filters of top-level and struct fields only), a column of
    nulls has no values, a struct field is advised as any column."""
    (f,) = {f.path: f for f in local_files if f.name.startswith("pyarrow nested")}.values()
    assert cli.main(["advise", str(f.path), "--json"]) == 0
    cols = {c["column"]: c for c in json.loads(capsys.readouterr().out)["columns"]}
    assert set(cols) == {
        "id",
        "l.list.element",
        "s.x",
        "s.y",
        "m.key_value.key",
        "m.key_value.value",
        "ls.list.element.a",
        "ls.list.element.b",
        "late",
        "nothing",
    }  # not the boolean
    for name in ("l.list.element", "m.key_value.key", "m.key_value.value", "ls.list.element.a", "ls.list.element.b"):
        assert not cols[name]["recommend"] and cols[name]["reason"].startswith("inside a list or map"), cols[name]
        assert cols[name]["ndv_per_row_group"]["mean"] > 0, cols[name]
    assert cols["nothing"]["reason"].startswith("no values") and not cols["nothing"]["recommend"]
    assert cols["s.y"]["ndv_per_row_group"]["mean"] == 1000 and cols["late"]["ndv_per_row_group"]["min"] == 0


@pytest.mark.spark
def test_retrofit_refusals_are_one_line(
    spark_files: list[CorpusFile], local_files: list[CorpusFile], tmp_path: Path, capsys
) -> None:
    """retrofit (a Spark job, run in this process's session: a JVM per subprocess would cost more than
    the whole corpus run) prints its job's refusal as the tools print bad input: one line, exit 2,
    naming the file. On copies: a refused file must stay as it was."""
    by_name = {f.name: f for f in spark_files + local_files}
    cases = [
        ("spark encrypted, plaintext footer", "s", "neither decrypt such files"),
        ("garbage footer", "i64", ""),
        ("pyarrow nested", "l.list.element", "is inside an array or map"),
    ]
    for i, (name, column, text) in enumerate(cases):
        source = by_name[name].path
        copy = tmp_path / str(i) / source.name
        copy.parent.mkdir()
        copy.write_bytes(source.read_bytes())
        assert cli.main(["retrofit", str(copy), "--columns", column]) == 2, name
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("bloomparquet: ") and err.count("\n") == 1, (name, err)
        assert text in err and copy.name in err, (name, err)
        assert copy.read_bytes() == source.read_bytes(), name
