"""The user guide's Iceberg examples (``python-iceberg`` blocks of the Iceberg page, then of the API
reference) run, in order, in the Iceberg session (the default Spark's docs test skips them: it has no
Iceberg)."""

from __future__ import annotations

import pytest

import bloomparquet as bp

from ..test_docs_examples import _blocks

pytestmark = pytest.mark.spark


def test_iceberg_examples_run(spark) -> None:
    namespace = {"spark": spark, "bp": bp}
    blocks = [
        (code, f"{doc}:{line}")
        for doc in ("docs/iceberg.md", "docs/api.md")
        for lang, code, line in _blocks(doc)
        if lang == "python-iceberg"
    ]
    assert len(blocks) >= 3, blocks
    spark.sql("DROP TABLE IF EXISTS lake.shop.orders")
    try:
        for code, line in blocks:
            exec(compile(code, line, "exec"), namespace)  # noqa: S102
    finally:
        spark.conf.unset("spark.bloomparquet.iceberg.enabled")
