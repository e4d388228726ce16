"""Turn a JMH JSON result (bench/jmh.sh) into a CSV, markdown tables and the probe plot.

    .venv/bin/python bench/plot_kernels.py bench-out/jmh-quick.json [more.json ...] [--png PNG]

Several JSON files merge (a later file's result replaces an earlier one's for
the same benchmark and parameters). Writes <first json>.csv, prints markdown
tables (ns/op and the ratio parquet-java / ours) for docs/benchmarks.md, and
plots probe ns/op against filter size per implementation.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from pathlib import Path

IMPLS = ("vector", "scalar", "scalar-v0", "parquet-java")


def _size_label(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def load(path: Path) -> list[dict]:
    rows = []
    for r in json.loads(path.read_text()):
        cls, method = r["benchmark"].rsplit(".", 2)[-2:]
        m = r["primaryMetric"]
        rows.append(
            {
                "class": cls,
                "method": method,
                **r.get("params", {}),
                "score": m["score"],
                "error": m["scoreError"],
                "unit": m["scoreUnit"],
            }
        )
    return rows


def write_csv(rows: list[dict], out: Path) -> None:
    keys = ["class", "method", "size", "impl", "hitRate", "score", "error", "unit"]
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def kernel_table(rows: list[dict], cls: str, with_hit: bool) -> str:
    cell = {
        (r["method"], int(r["size"]), int(r.get("hitRate", 0)), r["impl"]): r["score"]
        for r in rows
        if r["class"] == cls
    }
    if not cell:
        return ""
    head = "| mode | size | " + ("hit | " if with_hit else "") + " | ".join(f"{i} ns" for i in IMPLS)
    head += " | parquet-java / vector | parquet-java / scalar |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for method, size, hit in sorted({k[:3] for k in cell}, key=lambda k: (k[0], k[1], k[2])):
        v = [cell.get((method, size, hit, i)) for i in IMPLS]
        fmt = [f"{x:.2f}" if x is not None else "-" for x in v]
        pj = v[-1]
        ratios = [f"{pj / x:.1f}x" if pj and x else "-" for x in v[:2]]
        lines.append(
            f"| {method} | {_size_label(size)} | "
            + (f"{hit} | " if with_hit else "")
            + " | ".join(fmt)
            + " | "
            + " | ".join(ratios)
            + " |"
        )
    return "\n".join(lines)


def hash_table(rows: list[dict]) -> str:
    cell = {r["method"]: r["score"] for r in rows if r["class"] == "HashInsertBench"}
    if not cell:
        return ""
    lines = [
        "| type | ours batch ns | ours single ns | parquet-java hash(T) ns | parquet-java hash(Object) ns "
        "| speed-up batch vs hash(T) | batch vs hash(Object) |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in ("int64", "byteArray"):
        b, s, p, o = (cell.get(t + k) for k in ("OursBatch", "OursSingle", "ParquetJava", "ParquetJavaObject"))
        if None in (b, s, p, o):
            continue
        lines.append(f"| {t} | {b:.2f} | {s:.2f} | {p:.2f} | {o:.2f} | {p / b:.1f}x | {o / b:.1f}x |")
    return "\n".join(lines)


def memory_table(rows: list[dict]) -> str:
    cell = {(r["method"], int(r["size"])): r["score"] for r in rows if r["class"] == "MemoryBoundBench"}
    if not cell:
        return ""
    lines = ["| size | independent loads ns | dependent loads ns |", "|---|---|---|"]
    for size in sorted({k[1] for k in cell}):
        lines.append(
            f"| {_size_label(size)} | {cell.get(('independent', size), 0):.2f} | {cell.get(('dependent', size), 0):.2f} |"
        )
    return "\n".join(lines)


def choice_table(rows: list[dict]) -> str:
    cell = {r["method"]: r["score"] for r in rows if r["class"] == "KernelChoiceBench"}
    return "\n".join(f"| {m} | {s:.2f} ns/probe |" for m, s in sorted(cell.items()))


def plot(rows: list[dict], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series: dict[tuple, list[tuple[int, float]]] = defaultdict(list)
    for r in rows:
        if r["class"] == "ProbeBench":
            series[(r["method"], r["impl"], int(r["hitRate"]))].append((int(r["size"]), r["score"]))
    if not series:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    colors = {"vector": "tab:blue", "scalar": "tab:green", "scalar-v0": "tab:gray", "parquet-java": "tab:red"}
    for ax, method in zip(axes, ("batch", "single")):
        for (m, impl, hit), pts in sorted(series.items()):
            if m != method:
                continue
            pts.sort()
            ax.plot(
                [p[0] for p in pts],
                [p[1] for p in pts],
                marker="o",
                color=colors.get(impl),
                linestyle="-" if hit == 0 else "--",
                label=f"{impl}, hit rate {hit}",
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        sizes = sorted({p[0] for pts in series.values() for p in pts})
        ax.set_xticks(sizes, [_size_label(s) for s in sizes])
        ax.set_xlabel("filter size")
        ax.set_title(f"probe, {method}" + (" (checkAll, 1024 hashes)" if method == "batch" else " (check)"))
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("ns per probe (lower is better)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", type=Path, nargs="+")
    ap.add_argument(
        "--png", type=Path, default=Path(__file__).resolve().parent.parent / "docs/img/probe_ns_vs_size.png"
    )
    args = ap.parse_args()
    merged: dict[tuple, dict] = {}
    for path in args.json:
        for r in load(path):
            merged[(r["class"], r["method"], r.get("size"), r.get("impl"), r.get("hitRate"))] = r
    rows = list(merged.values())
    csv_path = args.json[0].with_suffix(".csv")
    write_csv(rows, csv_path)
    for title, table in (
        ("Probe", kernel_table(rows, "ProbeBench", True)),
        ("Insert", kernel_table(rows, "InsertBench", False)),
        ("Hash + insert (per value, 1 MiB filter)", hash_table(rows)),
        ("Memory floor: one int per probed block, no bloom logic", memory_table(rows)),
        ("Kernel choice (batched probe via SbbfKernels.get(), 1 MiB)", choice_table(rows)),
    ):
        if table:
            print(f"\n### {title}\n\n{table}")
    plot(rows, args.png)
    print(f"\nwrote {csv_path} and {args.png}")


if __name__ == "__main__":
    main()
