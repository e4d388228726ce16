"""Command line: ``python -m bloomparquet {demo,inspect,jar,kernel,retrofit} ...``."""

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


def _jar() -> int:
    from ._jar import jar_path

    try:
        print(jar_path())
    except (RuntimeError, FileNotFoundError) as e:
        print(f"bloomparquet: {e}", file=sys.stderr)
        return 2
    return 0


def _kernel() -> int:
    from . import session
    from ._session import jvm_bridge

    bridge = jvm_bridge(session())
    print(f"{bridge.kernelName()}: {bridge.kernelReason()}")
    return 0


def _retrofit(path: str, columns: str, fpp: float, overwrite: bool) -> int:
    from . import retrofit, session

    results = retrofit(session(), path, columns, fpp=fpp, overwrite=overwrite)
    if not results:
        print(f"{path}: no Parquet files")
        return 0
    total_filters = total_bytes = 0
    for r in results:
        print(f"{r['status']:<12} {r['chunks']:>5} filters {int(r['filter_bytes']):>12,} B  {r['path']}")
        total_filters += int(r["filter_bytes"])
        total_bytes += int(r["file_bytes"])
    done = sum(r["status"] == "retrofitted" for r in results)
    print(f"{done} of {len(results)} files retrofitted; {total_filters:,} filter bytes in {total_bytes:,} bytes")
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
    sub.add_parser("jar", help="print the path of the jar for the installed pyspark (for --jars / spark.jars)")
    ret = sub.add_parser("retrofit", help="add bloom filters to existing Parquet files (a Spark job, one task per file)")
    ret.add_argument("path", help="a Parquet file, a directory (searched recursively) or a glob")
    ret.add_argument("--columns", required=True, help="comma-separated columns, e.g. user_id,email or s.x")
    ret.add_argument("--fpp", type=float, default=0.01, help="false-positive probability in (0, 1) (default 0.01)")
    ret.add_argument("--overwrite", action="store_true", help="replace filters that chunks already have")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from .demo import run_demo

        return run_demo(rows=args.rows, out=args.out)
    if args.command == "inspect":
        return _inspect(args.path)
    if args.command == "jar":
        return _jar()
    if args.command == "retrofit":
        return _retrofit(args.path, args.columns, args.fpp, args.overwrite)
    return _kernel()


if __name__ == "__main__":
    sys.exit(main())
