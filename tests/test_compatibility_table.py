"""The user guide's compatibility table says what project/spark-versions.properties pins: one row
per supported Spark minor, with its tested release, Scala binary version, Delta Lake and Iceberg releases."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "project" / "spark-versions.properties").read_text().splitlines():
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            pins[key.strip()] = value.strip()
    return pins


def test_the_table_matches_the_pins() -> None:
    pins = _pins()
    minors = sorted((k for k in pins if re.fullmatch(r"\d+\.\d+", k)), key=lambda m: tuple(map(int, m.split("."))))
    guide = (ROOT / "docs" / "versions.md").read_text()
    block = guide.split("<!-- compatibility:", 1)[1].split("<!-- /compatibility -->", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in block.splitlines() if line.startswith("| ")]
    assert [r[0] for r in rows[1:]] == minors, rows
    for row in rows[1:]:
        minor = row[0]
        scala = ".".join(pins[f"scala.{minor}"].split(".")[:2])
        delta = pins.get(f"delta.{minor}", "none yet")
        iceberg = pins.get(f"iceberg.{minor}", "none yet")
        assert row[1:5] == [pins[minor], scala, delta, iceberg], (minor, row)
