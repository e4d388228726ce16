"""Plot bench/e2e.py results: best wall time per query and reader (log scale).

.venv/bin/python bench/plot_e2e.py bench-out/e2e/results.csv docs/img/e2e_times.png ["title"]
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from pathlib import Path


def main(results: str, png: str, title: str = "") -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    times: dict[str, dict[str, float]] = defaultdict(dict)
    with open(results) as f:
        for row in csv.DictReader(f):
            times[row["reader"]][row["query"]] = float(row["best_s"])
    queries = list(next(iter(times.values())))
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / len(times)
    for i, (reader, by_query) in enumerate(times.items()):
        xs = [q + i * width for q in range(len(queries))]
        ax.bar(xs, [by_query.get(q, float("nan")) for q in queries], width, label=reader)
    ax.set_xticks([q + width * (len(times) - 1) / 2 for q in range(len(queries))])
    ax.set_xticklabels(queries, rotation=30, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("best wall time (s, log)")
    ax.set_title(title or "End-to-end query time per reader (same Spark application)")
    ax.legend()
    fig.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:4]))
