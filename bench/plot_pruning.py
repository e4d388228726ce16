"""Plot bench/in_lists.py (or bench/keyset_join.py) results: the share of row groups kept
against the number of probed values, next to the physics bound 1-(1-p)^n at each
dataset's real FPP (from its filters' fill).

    .venv/bin/python bench/plot_pruning.py bench-out/in_lists/results.json docs/img/kept_vs_bound.png ["title"]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def main(results: str, png: str, title: str = "") -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    with open(results) as f:
        data = json.load(f)
    rows = data["rows"] if isinstance(data, dict) else data
    absent = [r for r in rows if not r.get("present") and r.get("variant", "absent") == "absent"]
    by_fpp: dict[float, list[dict]] = defaultdict(list)
    for r in absent:
        by_fpp[r["fpp"]].append(r)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ns = np.logspace(0, np.log10(max(r["n"] for r in absent)) + 0.2, 200)
    for fpp, rs in sorted(by_fpp.items(), reverse=True):
        p = rs[0]["fill_fpp"]
        (line,) = ax.plot(ns, 1 - (1 - p) ** ns, label=f"bound, filters at {fpp:g} (real {p:.2g})")
        rs = sorted(rs, key=lambda r: r["n"])
        ax.plot(
            [r["n"] for r in rs],
            [r["kept"] / r["row_groups"] for r in rs],
            "o",
            color=line.get_color(),
            label=f"kept, {rs[0]['row_groups']} row groups",
        )
    ax.set_xscale("log")
    ax.set_xlabel("values probed (absent from the data)")
    ax.set_ylabel("share of row groups kept")
    ax.set_title(title or "Row groups kept vs 1-(1-p)^n")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
