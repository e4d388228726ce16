"""Command line: ``python -m bloomparquet {demo,inspect,kernel} ...``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _inspect(path: str) -> int:
    from .reference import read_bloom_filters

    filters = read_bloom_filters(path)
    if not filters:
        print(f"{path}: no bloom filters")
        return 0
    print(f"{'row group':>9}  {'column':<30} {'bytes':>10} {'blocks':>8} {'bits set':>9}")
    for (rg, column), f in sorted(filters.items()):
        density = bin(int.from_bytes(f.to_bytes(), "little")).count("1") / (f.num_bytes * 8)
        print(f"{rg:>9}  {column:<30} {f.num_bytes:>10} {f.num_blocks:>8} {density:>8.1%}")
    return 0


def _kernel() -> int:
    from . import session
    from ._session import jvm_bridge

    bridge = jvm_bridge(session())
    print(f"{bridge.kernelName()}: {bridge.kernelReason()}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bloomparquet", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="write a dataset with bloom filters and run selective queries on it")
    demo.add_argument("--rows", type=int, default=2_000_000, help="rows to write (default 2,000,000)")
    demo.add_argument("--out", default="demo-out", help="output directory (default demo-out/)")
    ins = sub.add_parser("inspect", help="list the bloom filters stored in a Parquet file")
    ins.add_argument("path")
    sub.add_parser("kernel", help="print the SBBF kernel the JVM chooses, and why")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from .demo import run_demo

        return run_demo(rows=args.rows, out=args.out)
    if args.command == "inspect":
        return _inspect(args.path)
    return _kernel()


if __name__ == "__main__":
    sys.exit(main())
