"""The CLI commands that start the JVM (``kernel``, ``retrofit``, ``demo``): their JSON reports are
the documented schema, and the demo, small, runs whole: JVM and Python answers agree and its point
miss plans no task."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bloomparquet.cli import main

from .report_schema import assert_conforms, report_schema

pytestmark = pytest.mark.spark


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, (argv, err)
    report = json.loads(out)
    assert_conforms(report, report_schema(), argv)
    return report


def test_kernel(spark, capsys) -> None:
    report = _report(capsys, "kernel")
    assert report["kernel"] and report["reason"], report


def test_retrofit_adds_the_filters_it_reports(spark, tmp_path: Path, capsys) -> None:
    ids = np.random.default_rng(3).permutation(8_000)
    pq.write_table(pa.table({"plain": pa.array(ids, pa.int64())}), tmp_path / "a.parquet", row_group_size=2_000)
    report = _report(capsys, "retrofit", str(tmp_path), "--columns", "plain")
    assert [f["status"] for f in report["files"]] == ["retrofitted"], report
    probed = _report(capsys, "probe", str(tmp_path), "plain", str(int(ids[0])), "-1")
    groups = probed["files"][0]["row_groups"]
    assert groups[0]["values"][0]["result"] == "may-contain", groups  # ids[0] is in row group 0
    # The absent -1: the new filters rule it out (a row group may keep it at its FPP; the data is seeded).
    assert sum(g["values"][1]["result"] == "excluded" for g in groups) >= 3, groups


def test_digest_covers_the_files_it_reports(spark, tmp_path: Path, capsys) -> None:
    ids = np.random.default_rng(5).permutation(8_000)
    pq.write_table(pa.table({"plain": pa.array(ids, pa.int64())}), tmp_path / "a.parquet", row_group_size=2_000)
    _report(capsys, "retrofit", str(tmp_path), "--columns", "plain")
    report = _report(capsys, "digest", str(tmp_path), "--columns", "plain")
    assert (report["files"], report["files_skipped"], report["entries"]) == (1, 0, 4), report
    assert report["files_reused"] == 0, report
    assert Path(report["path"].removeprefix("file:")).stat().st_size == report["digest_bytes"] > 0, report
    assert main(["digest", str(tmp_path), "--columns", "plain"]) == 0
    # Rebuilt: the unchanged file's entries are kept from the digest it replaces, not read again.
    assert "1 files (1 kept from the digest it replaces, 0 skipped), 4 filters" in capsys.readouterr().out
    # Without --columns: rebuilt for the columns and bound it was built with; a table without one is refused.
    again = _report(capsys, "digest", str(tmp_path))
    assert (again["files"], again["files_reused"], again["entries"]) == (1, 1, 4), again
    bare = tmp_path / "bare"
    bare.mkdir()
    pq.write_table(pa.table({"plain": pa.array(ids, pa.int64())}), bare / "a.parquet")
    assert main(["digest", str(bare)]) == 2
    assert (
        capsys.readouterr().err
        == f"bloomparquet: digest: {bare} has no digest to rebuild: give --columns to build one\n"
    )


def test_demo(spark, tmp_path: Path, capsys) -> None:
    report = _report(capsys, "demo", "--rows", "40000", "--out", str(tmp_path / "demo"))
    assert report["jvm_python_disagreements"] == 0, report
    miss = next(q for q in report["queries"] if q["query"] == "point miss")
    assert miss["files_skipped"] == miss["files_total"] > 0 and miss["tasks"] == 0, miss
    assert spark.range(3).count() == 3  # the session it found is still the caller's, running
