"""TPC-DS queries, run through the opt-in (``spark.bloomparquet.parquet.enabled``) and through
Spark's own ``parquet`` scan over the same files (the fact tables written by our writer with filters
on their keys): the opt-in's scans decode at most the rows Spark's decode, summed over the query's
scans (its subqueries' included, each scan once), and both return the rows of Spark's ``parquet``
with its filter pushdown off.

bench/tpcds.py runs it (``--check``) in a session of its own, with an 8 GB driver.
TPC-DS data at scale 0.01 (tpcgen-cli, of the bench extra), each table one row group, so what this
catches is work a route adds whatever the pruning: a scan copied where Spark would reuse one, a
runtime filter whose subquery reads its side again, a filter Spark's V1 scan pushes that V2 loses.
Here the queries whose shapes a route can change (CTEs read twice, scalar and predicate subqueries,
joins that plant runtime filters, the ten richest in them); ``bench/tpcds.py --check`` runs every
query the same way, and at scale 1 with times."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.spark, pytest.mark.long]

BENCH = Path(__file__).resolve().parents[1] / "bench" / "tpcds.py"
QUERIES = [
    *("q9", "q10", "q14", "q14a", "q14b", "q23a", "q35a", "q64", "q81", "q92"),  # richest in runtime filters
    *("q1", "q4", "q11", "q30", "q39a", "q47", "q74", "q83"),  # a CTE read twice
    *("q6", "q44", "q54", "q58", "q95"),  # scalar subqueries, IN and EXISTS subqueries
]


def test_the_opt_in_never_decodes_more_than_sparks_scan(tmp_path: Path) -> None:
    args = ["--scale", "0.01", "--out", str(tmp_path), "--filtered-facts", "--routes", "parquet,opted-in"]
    # Small data leaves some divisors zero: NULL there, as the queries were written for.
    args += [
        "--queries",
        ",".join(QUERIES),
        "--rounds",
        "1",
        "--conf",
        "spark.sql.ansi.enabled=false",
        "--oracle",
        "--check",
    ]
    # The driver keeps Spark's broadcast relations of earlier queries until its cleaner drops them
    # (~2-3 GB here, either route): past 4 GB a later broadcast fails, whichever route builds it.
    args += ["--driver-memory", "8g"]
    done = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=1200)
    report = done.stdout[done.stdout.find("total seconds") :]
    failures = "\n".join(line for line in done.stdout.splitlines() if line.strip().startswith("failed:"))
    assert done.returncode == 0, failures + "\n" + report + done.stderr[-3000:]
    assert "queries where opted-in decoded more rows than parquet: []" in report, report
