"""Markdown table of a bench/e2e.py run, as pasted into docs/benchmarks.md.

.venv/bin/python bench/e2e_table.py bench-out/e2e-20m/results.csv
"""

from __future__ import annotations

import csv
import sys


def table(results: str) -> str:
    with open(results) as f:
        rows = list(csv.DictReader(f))
    out = [
        "| query | reader | best s | median s | first s | best vs parquet (bloom on) | tasks | rows scanned | row groups pruned |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        pruned = f"{r['row_groups_pruned']}/{r['row_groups_total']}" if r["row_groups_total"] else ""
        out.append(
            f"| {r['query']} | {r['reader']} | {float(r['best_s']):.3f} | {float(r['median_s']):.3f} | "
            f"{float(r['first_s']):.3f} | {float(r['ratio_vs_bloom_on']):.2f}x | {r['tasks']} | "
            f"{int(r['rows_scanned']):,} | {pruned} |"
        )
    return "\n".join(out)


if __name__ == "__main__":
    print(table(sys.argv[1]))
