"""The CLI tools on Hadoop paths: ``inspect``, ``probe``, ``verify`` and ``advise``
given a path on another file system (here the test jar's ``failing://``, the local
disk under another scheme, read through the session's JVM) report exactly what
they report for the same files read locally; ``--spark`` does the same for plain paths."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bloomparquet.cli import main


@pytest.fixture(scope="module")
def lake(tmp_path_factory) -> Path:
    """Two files of 3 row groups with filters on id and s, plus files Spark skips."""
    root = tmp_path_factory.mktemp("hadoop-cli") / "lake"
    root.mkdir()
    rng = np.random.default_rng(5)
    for n in range(2):
        ids = rng.permutation(6_000) * 2 + n
        table = pa.table(
            {
                "id": pa.array(ids, pa.int64()),
                "s": pa.array([f"u{i}" for i in ids]),
                "plain": pa.array(ids % 7, pa.int32()),
            }
        )
        pq.write_table(
            table,
            root / f"part-{n}.parquet",
            row_group_size=2_000,
            bloom_filter_options={c: {"ndv": 2_000, "fpp": 0.01} for c in ("id", "s")},
        )
    (root / "_SUCCESS").write_bytes(b"")
    (root / ".hidden.parquet").write_bytes(b"not parquet")
    return root


@pytest.fixture
def failing_fs(spark, bridge):
    """The ``failing://`` file system mounted in the session, never failing."""
    settings = dict(spark._jvm.io.bloomparquet.testing.FailingFileSystem.settings(-1, False))
    for k, v in settings.items():
        spark.conf.set(f"spark.hadoop.{k}", v)
        spark.conf.set(k, v)
    yield
    for k in settings:
        spark.conf.unset(f"spark.hadoop.{k}")
        spark.conf.unset(k)


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return code, json.loads(out)


def _local_form(report: dict, root: Path) -> str:
    """The report with Hadoop-qualified paths written as the plain local ones."""
    return json.dumps(report, sort_keys=True).replace("failing://", "").replace("failing:", "").replace("file:", "")


COMMANDS = [
    ("inspect",),
    ("probe", "{lake}", "id", "4", "5", "123457"),
    ("verify", "--rebuild"),
    ("advise", "--sample", "6"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_hadoop_path_reports_equal_local(lake: Path, failing_fs, capsys, command) -> None:
    def argv(where: str) -> list[str]:
        name, *rest = command
        if name == "probe":
            return [name, *(a.format(lake=where) for a in rest)]
        return [name, where, *rest]

    local_code, local = _report(capsys, *argv(str(lake)))
    hadoop_code, remote = _report(capsys, *argv(f"failing://{lake}"))
    assert local_code == hadoop_code == 0
    assert _local_form(remote, lake) == _local_form(local, lake)
    if command[0] != "advise":
        paths = [f["path"] for f in remote["files"]]
        assert len(paths) == 2 and all(p.startswith("failing:") and "part-" in p for p in paths)


def test_spark_flag_reads_plain_paths_through_hadoop(lake: Path, spark, capsys) -> None:
    _, local = _report(capsys, "inspect", str(lake / "part-0.parquet"))
    _, through = _report(capsys, "inspect", "--spark", str(lake / "part-0.parquet"))
    assert _local_form(through, lake) == _local_form(local, lake)
    assert through["files"][0]["path"].startswith("file:")


def test_hadoop_path_bad_input_exits_2(lake: Path, failing_fs, capsys) -> None:
    assert main(["inspect", f"failing://{lake}/nothing-here*"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bloomparquet: failing://") and "\n" not in err
    junk = lake.parent / "junk.parquet"
    junk.write_bytes(b"PAR1 but not parquet")
    assert main(["inspect", f"failing://{junk}"]) == 2
    assert "not a Parquet file" in capsys.readouterr().err
