"""The user guide's Delta Lake examples (``python-delta`` blocks) run, in order, in the Delta session
(the default Spark's docs test skips them: it has no Delta)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bloomparquet as bp

from ..test_docs_examples import _blocks

pytestmark = pytest.mark.spark


def test_delta_examples_run(spark, tmp_path: Path) -> None:
    namespace = {"spark": spark, "bp": bp}
    blocks = [(code, line) for lang, code, line in _blocks("docs/delta.md") if lang == "python-delta"]
    assert blocks
    try:
        for code, line in blocks:
            exec(compile(code.replace("/lake/", f"{tmp_path}/"), f"docs/delta.md:{line}", "exec"), namespace)  # noqa: S102
    finally:
        spark.conf.unset("spark.bloomparquet.delta.enabled")
