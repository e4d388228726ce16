"""Throughput of the numpy reference: values/s for hash+insert and hash+check.

    .venv/bin/python bench/reference_bench.py [--n 1000000] [--repeat 5]

INT64 values and short strings (8-40 ASCII bytes), each into a filter sized by
optimal_num_bytes(n, 0.01), the size a writer would choose. Best of --repeat.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bloomparquet.reference import SplitBlockBloomFilter, optimal_num_bytes, xxh64_plain


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = args.n
    rng = np.random.default_rng(0)
    ints = rng.integers(-(2**63), 2**63 - 1, n, dtype=np.int64)
    lengths = rng.integers(8, 41, n)
    alphabet = np.frombuffer(bytes(range(33, 127)), np.uint8)
    blob = alphabet[rng.integers(0, len(alphabet), int(lengths.sum()))].tobytes()
    ends = np.cumsum(lengths)
    strings = [blob[e - k : e] for e, k in zip(ends.tolist(), lengths.tolist())]
    num_bytes = optimal_num_bytes(n, 0.01)
    print(f"n={n:,} values, filter {num_bytes:,} bytes (1 % FPP), best of {args.repeat}")

    for label, values, ptype in (("INT64", ints, "INT64"), ("BYTE_ARRAY", strings, "BYTE_ARRAY")):
        f = SplitBlockBloomFilter(num_bytes)

        def insert() -> None:
            f.insert_hashes(xxh64_plain(values, ptype))  # noqa: B023

        def check() -> None:
            f.check_hashes(xxh64_plain(values, ptype))  # noqa: B023

        def hash_only() -> None:
            xxh64_plain(values, ptype)  # noqa: B023

        for op, fn in (("hash", hash_only), ("hash+insert", insert), ("hash+check", check)):
            t = _best(fn, args.repeat)
            print(f"{label:10s} {op:12s} {n / t / 1e6:8.2f} M values/s  ({t * 1e9 / n:6.1f} ns/value)")


if __name__ == "__main__":
    main()
