"""Measured false-positive rate of the split block Bloom filter against bits per
distinct value, next to the spec's table and the formula it comes from.

    .venv/bin/python bench/fpp_curve.py            # bench-out/fpp/fpp.csv + docs/img/fpp_vs_bits.png

Real values, real hashes: distinct INT64 keys (even numbers, random order)
hashed with xxHash64 as Parquet does, inserted into a 1 MiB filter (32,768
blocks) through the numpy reference, which is bit-for-bit the JVM kernels'
bitset (tests/test_jvm_crosscheck.py); probed with absent keys (odd numbers),
enough of them for >= 400 expected false positives per point (at most 40 M).
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path

import numpy as np

from bloomparquet.reference import SplitBlockBloomFilter, xxh64_plain

SPEC_TABLE = [(6.0, 0.10), (10.5, 0.01), (16.9, 0.001), (26.4, 0.0001), (41.0, 0.00001)]
BLOCKS = 32_768


def formula_fpp(bits: float) -> float:
    """The spec's sizing formula solved for the FPP: bits = -8 / ln(1 - fpp^(1/8))."""
    return (1.0 - math.exp(-8.0 / bits)) ** 8


def measure(bits: float, rng: np.random.Generator, max_probes: int) -> tuple[int, int, int]:
    """(values inserted, probes, false positives) for a filter at `bits` bits per value."""
    n = int(BLOCKS * 256 / bits)
    f = SplitBlockBloomFilter(BLOCKS * 32)
    keys = rng.permutation(4 * n)[:n].astype(np.int64) * 2
    f.insert_hashes(xxh64_plain(keys, "INT64"))
    probes = int(min(max_probes, max(2_000_000, 400 / formula_fpp(bits))))
    hits = 0
    for start in range(0, probes, 4_000_000):
        absent = rng.integers(0, 2**61, min(4_000_000, probes - start), dtype=np.int64) * 2 + 1
        hits += int(f.check_hashes(xxh64_plain(absent, "INT64")).sum())
    return n, probes, hits


def plot(rows: list[dict], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    xs = np.linspace(4, 46, 200)
    ax.plot(xs, [formula_fpp(x) for x in xs], "-", color="grey", label="spec formula (fpp = (1 - e^(-8/b))^8)")
    ax.plot(
        [b for b, _ in SPEC_TABLE],
        [p for _, p in SPEC_TABLE],
        "s",
        ms=9,
        mfc="none",
        color="tab:red",
        label="spec table",
    )
    measured = [r for r in rows if r["false_positives"] > 0]
    ax.plot(
        [r["bits_per_value"] for r in measured],
        [r["measured_fpp"] for r in measured],
        "o",
        ms=4,
        color="tab:blue",
        label="measured (1 MiB filter, xxHash64 of INT64 keys)",
    )
    ax.set_yscale("log")
    ax.set_xlabel("bits of filter per distinct value")
    ax.set_ylabel("false-positive rate (log)")
    ax.set_title("Split block Bloom filter: measured FPP vs the spec")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="bench-out/fpp")
    ap.add_argument("--png", default="docs/img/fpp_vs_bits.png")
    ap.add_argument("--max-probes", type=int, default=40_000_000)
    args = ap.parse_args()

    rng = np.random.default_rng(2026)
    grid = sorted({*range(4, 46, 2), *(b for b, _ in SPEC_TABLE)})
    spec = dict(SPEC_TABLE)
    rows = []
    print(
        f"{'bits/value':>10} {'values':>9} {'probes':>11} {'false pos':>9} {'measured':>10} {'formula':>10} "
        f"{'spec table':>10} {'measured/formula':>16}"
    )
    t = time.perf_counter()
    for bits in grid:
        n, probes, hits = measure(float(bits), rng, args.max_probes)
        fpp = hits / probes
        row = {
            "bits_per_value": bits,
            "values": n,
            "probes": probes,
            "false_positives": hits,
            "measured_fpp": fpp,
            "formula_fpp": formula_fpp(bits),
            "spec_table_fpp": spec.get(bits, ""),
        }
        rows.append(row)
        table = f"{spec[bits]:.5%}" if bits in spec else "-"
        print(
            f"{bits:>10} {n:>9,} {probes:>11,} {hits:>9,} {fpp:>10.5%} {formula_fpp(bits):>10.5%} {table:>10} "
            f"{fpp / formula_fpp(bits):>16.2f}",
            flush=True,
        )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "fpp.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plot(rows, Path(args.png))
    print(f"wrote {out / 'fpp.csv'} and {args.png} in {time.perf_counter() - t:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
