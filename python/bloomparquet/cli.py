"""Command line: ``bloomparquet {inspect,probe,verify,advise,retrofit,digest,demo,jar,kernel} ...``
(also ``python -m bloomparquet``).

``inspect``, ``probe``, ``verify`` and ``advise`` read local files with pyarrow and
start no JVM; with ``--spark`` (or a path such as ``hdfs://...`` or ``s3a://...``) they
read any Hadoop path through a local Spark session. Every command takes ``--json``. Exit status: 0 fine, 1 ``verify``
found a problem, 2 bad input (one line on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .table_digest import DEFAULT_FPP as DIGEST_FPP

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def _emit(report: dict[str, Any], as_json: bool, render: Callable[[dict[str, Any]], str]) -> None:
    print(json.dumps(report, indent=2, allow_nan=False) if as_json else render(report))


def _storage(args: argparse.Namespace, paths: Sequence[str]) -> Any:
    """Where the paths are read: local files with pyarrow, or a Spark session's Hadoop file systems."""
    from .tools import storage

    return storage.for_paths(paths, _spark(None) if args.spark else None)


def _fpp(value: float | None) -> float | None:
    """``--fpp`` checked here, so that a bad one is named by the flag the user typed."""
    from .tools import BadInput

    if value is not None and not 0.0 < value < 1.0:
        raise BadInput(f"--fpp {value}: expected a false-positive probability between 0 and 1 (exclusive)")
    return value


def _columns(args: argparse.Namespace) -> list[str] | None:
    from .tools import selection

    return selection.split_names(args.columns)


# One handler per command: each returns the exit status; bad input raises (exit 2, in ``main``).


def _inspect(args: argparse.Namespace) -> int:
    from .tools import inspect

    report = inspect.run(args.paths, _columns(args), storage=_storage(args, args.paths))
    _emit(report, args.json, lambda r: inspect.render(r, summary=args.summary))
    return 0


def _probe(args: argparse.Namespace) -> int:
    from .tools import probe

    paths = [args.path, *args.more_paths]
    report = probe.run(paths, args.column, args.values, storage=_storage(args, paths))
    _emit(report, args.json, probe.render)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from .tools import verify

    report = verify.run(args.paths, rebuild=args.rebuild, columns=_columns(args), storage=_storage(args, args.paths))
    _emit(report, args.json, verify.render)
    return 0 if report["ok"] else 1


def _advise(args: argparse.Namespace) -> int:
    from .tools import advise

    report = advise.run(
        args.paths, _columns(args), sample=args.sample, fpp=_fpp(args.fpp), storage=_storage(args, args.paths)
    )
    _emit(report, args.json, advise.render)
    return 0


def _jar(args: argparse.Namespace) -> int:
    from ._jar import jar_path
    from .tools import BadInput

    try:
        path = str(jar_path())
    except (RuntimeError, FileNotFoundError) as e:
        raise BadInput(str(e)) from None
    print(json.dumps({"command": "jar", "version": 1, "path": path}) if args.json else path)
    return 0


def _spark(remote: str | None, master: str | None = None) -> SparkSession:
    """A classic session with bloomparquet on ``master`` (default local), or a Spark Connect session at
    ``remote``; Spark's progress bar on where stderr is a terminal."""
    from . import session
    from .tools import BadInput

    if remote is not None and master is not None:
        raise BadInput("--master and --remote: give one (a master starts a session here, --remote uses a server's)")
    if remote is None:
        return session(master or "local[*]", **_progress())
    return session(remote=remote)


def _progress() -> dict[str, str]:
    return {"spark.ui.showConsoleProgress": "true"} if sys.stderr.isatty() else {}


def _table_format_spark(fmt: str, master: str | None, conf: list[str]) -> SparkSession:
    """A classic session with bloomparquet, the release of table format ``fmt`` (``"delta"`` or
    ``"iceberg"``) its jar is built against, and ``conf`` (``KEY=VALUE`` each: an Iceberg catalog)."""
    from . import delta_package, iceberg_package, session
    from .tools import BadInput

    name, package, settings = {
        "delta": (
            "Delta Lake",
            delta_package(),
            {
                "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
                "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
            },
        ),
        "iceberg": (
            "Apache Iceberg",
            iceberg_package(),
            {"spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"},
        ),
    }[fmt]
    if package is None:
        import pyspark

        raise SystemExit(f"bloomparquet: {name} has no release for Spark {pyspark.__version__}: no --{fmt} here")
    settings = {**_progress(), "spark.jars.packages": package, **settings}
    for item in conf:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BadInput(f"--conf {item!r}: expected KEY=VALUE, e.g. spark.sql.catalog.lake.type=hadoop")
        settings[key.strip()] = value
    return session(master or "local[*]", **settings)


def _kernel(args: argparse.Namespace) -> int:
    row = _spark(args.remote, args.master).sql("SELECT * FROM bloomparquet_kernel()").collect()[0]
    if args.json:
        print(json.dumps({"command": "kernel", "version": 1, "kernel": row.kernel, "reason": row.reason}))
    else:
        print(f"{row.kernel}: {row.reason}")
    return 0


def _digest(args: argparse.Namespace) -> int:
    from . import build_digest, refresh_digest
    from .tools import BadInput

    _fpp(args.fpp)
    if args.columns is None and (args.full or args.fpp != DIGEST_FPP):
        raise BadInput("digest: --fpp and --full apply to a build: give --columns too")
    spark = _spark(args.remote, args.master)
    if args.columns is None:
        found = refresh_digest(spark, args.path)
        if found is None:
            raise BadInput(f"digest: {args.path} has no digest to rebuild: give --columns to build one")
        built = found
    else:
        built = build_digest(spark, args.path, args.columns, fpp=args.fpp, full=args.full)
    if args.json:
        print(json.dumps({"command": "digest", "version": 1, **built}, indent=2))
        return 0
    print(
        f"{built['files']:,} files ({built['files_reused']:,} kept from the digest it replaces, "
        f"{built['files_skipped']:,} skipped), {built['entries']:,} filters in "
        f"{built['classes']} size classes: {int(built['digest_bytes']):,} digest bytes for "
        f"{int(built['filter_bytes']):,} filter bytes; read {int(built['bytes_read']):,} bytes in "
        f"{float(built['seconds']):.1f} s"
    )
    print(f"digest: {built['path']}")
    return 0


def _retrofit(args: argparse.Namespace) -> int:
    from . import retrofit
    from .tools import BadInput

    path = args.path
    _fpp(args.fpp)
    if args.delta and args.iceberg:
        raise BadInput("--delta and --iceberg: give one table format")
    if args.conf and (args.remote or not (args.delta or args.iceberg)):
        raise BadInput(
            "--conf sets up the local session --delta or --iceberg starts; set a Connect server's settings on the server"
        )
    if args.dry_run:
        if args.delta or args.iceberg:
            raise BadInput("--dry-run reads Parquet files, not a table format's metadata: run it on the files")
        from .tools import retrofit_plan, selection

        columns = selection.split_names(args.columns) or []
        report = retrofit_plan.run([path], columns, args.overwrite, storage=_storage(args, [path]))
        _emit(report, args.json, retrofit_plan.render)
        return 0
    fmt = "delta" if args.delta else "iceberg" if args.iceberg else "parquet"
    if args.remote or fmt == "parquet":
        spark = _spark(args.remote, args.master)
    else:
        spark = _table_format_spark(fmt, args.master, args.conf)
    results = retrofit(spark, path, args.columns, fpp=args.fpp, overwrite=args.overwrite, format=fmt)
    if args.json:
        files = [
            {k: (v if isinstance(v, (int, float, bool)) or v is None else str(v)) for k, v in r.items()}
            for r in results
        ]
        print(json.dumps({"command": "retrofit", "version": 1, "files": files}, indent=2))
        return 0
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


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(rows=args.rows, out=args.out, as_json=args.json)


def _paths_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="Parquet files, directories (searched recursively, _ and . names skipped) or globs",
    )


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="bloomparquet",
        description=(__doc__ or "").replace("``", ""),  # the docstring's markup, not the terminal's
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"bloomparquet {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("--json", action="store_true", help="print a JSON report (schema: docs/cli.md)")
    hadoop = argparse.ArgumentParser(add_help=False)
    hadoop.add_argument(
        "--spark",
        action="store_true",
        help="read the paths through a local Spark session's "
        "Hadoop file systems (implied by a path like hdfs://... or s3a://...)",
    )
    remote = argparse.ArgumentParser(add_help=False)
    remote.add_argument(
        "--remote",
        metavar="URL",
        help="run on a Spark Connect server (sc://host:port) "
        "started with bloomparquet's jar and session extension, instead of a local Spark",
    )
    remote.add_argument(
        "--master",
        metavar="URL",
        help="start the session on this master, as spark-submit's --master (default local[*]; not with --remote)",
    )

    ins = sub.add_parser(
        "inspect",
        parents=[out, hadoop],
        help="per file, row group and column: the filter, its "
        "estimated NDV and FPP, min/max statistics; totals per column (no JVM for local files)",
    )
    ins.set_defaults(handler=_inspect)
    _paths_arg(ins)
    ins.add_argument("--columns", help="comma-separated columns (default: all)")
    view = ins.add_mutually_exclusive_group()
    view.add_argument(
        "--summary", dest="summary", action="store_true", default=None,
        help="totals per column only (the default for more than one file)",
    )  # fmt: skip
    view.add_argument("--detail", dest="summary", action="store_false", help="every row group of every file")

    pro = sub.add_parser(
        "probe",
        parents=[out, hadoop],
        help="per row group: does the filter exclude the values? (no JVM for local files)",
    )
    pro.set_defaults(handler=_probe)
    pro.add_argument("path", help="a Parquet file, a directory (searched recursively) or a glob")
    pro.add_argument("column", help="the column, e.g. user_id or s.x")
    pro.add_argument(
        "values",
        nargs="+",
        metavar="VALUE",
        help="values, parsed by the column's type "
        "(ints, decimals, 2024-01-31, 2024-01-31T12:00:00Z, text, 0x hex for binary)",
    )
    pro.add_argument(
        "--path",
        dest="more_paths",
        action="append",
        default=[],
        metavar="PATH",
        help="another file, directory or glob to probe (repeatable)",
    )

    ver = sub.add_parser(
        "verify",
        parents=[out, hadoop],
        help="check every filter is well-formed; exit 1 on a finding (no JVM for local files)",
    )
    ver.set_defaults(handler=_verify)
    _paths_arg(ver)
    ver.add_argument("--rebuild", action="store_true", help="also check every stored value is in its chunk's filter")
    ver.add_argument("--columns", help="comma-separated columns (default: all)")

    adv = sub.add_parser(
        "advise",
        parents=[out, hadoop],
        help="which columns deserve a filter, at what FPP, and the "
        "retrofit command line that adds them (no JVM for local files)",
    )
    adv.set_defaults(handler=_advise)
    _paths_arg(adv)
    adv.add_argument("--columns", help="comma-separated columns (default: every column with a bloom filter hash)")
    adv.add_argument("--sample", type=int, default=16, help="row groups read to count distinct values (default 16)")
    adv.add_argument("--fpp", type=float, help="use this FPP instead of choosing one")

    ret = sub.add_parser(
        "retrofit",
        parents=[out, remote],
        help="add bloom filters to existing Parquet files (a Spark job, one task per file)",
    )
    ret.set_defaults(handler=_retrofit)
    ret.add_argument("path", help="a Parquet file, a directory (searched recursively) or a glob")
    ret.add_argument("--columns", required=True, help="comma-separated columns, e.g. user_id,email or s.x")
    ret.add_argument("--fpp", type=float, default=0.01, help="false-positive probability in (0, 1) (default 0.01)")
    ret.add_argument(
        "--delta",
        action="store_true",
        help="path is a Delta Lake table: write each file with filters beside the old one and commit the new files "
        "through Delta (a local session with the Delta release bloomparquet's jar is built for)",
    )
    ret.add_argument(
        "--iceberg",
        action="store_true",
        help="path is an Iceberg table as Spark SQL names it (catalog.db.table): write each file with filters beside "
        "the old one and commit the new files through Iceberg's RewriteFiles (a local session with the Iceberg "
        "runtime bloomparquet's jar is built for; its catalog given by --conf)",
    )
    ret.add_argument(
        "--conf",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="with --delta or --iceberg: a setting of the local session, repeated (an Iceberg catalog: "
        "spark.sql.catalog.lake=org.apache.iceberg.spark.SparkCatalog, spark.sql.catalog.lake.type=hadoop, ...)",
    )
    ret.add_argument("--overwrite", action="store_true", help="replace filters that chunks already have")
    ret.add_argument(
        "--dry-run",
        action="store_true",
        help="list the files that would be rewritten and their bytes; write nothing (no JVM for local files)",
    )
    ret.add_argument(
        "--spark",
        action="store_true",
        help="with --dry-run: read the paths through a local Spark session's Hadoop file systems",
    )

    dig = sub.add_parser(
        "digest",
        parents=[out, remote],
        help="build a table's bloom digest from the filters in its files (a Spark job reading footers and filters "
        "only), so lookups plan without reading every file",
    )
    dig.set_defaults(handler=_digest)
    dig.add_argument("path", help="the table's root directory (a Parquet directory or a Delta table's)")
    dig.add_argument(
        "--columns",
        help="comma-separated columns whose filters it holds, e.g. user_id (default: rebuild the table's digest "
        "for the columns and bound it was built with)",
    )
    dig.add_argument(
        "--fpp",
        type=float,
        default=DIGEST_FPP,
        help=f"fold filters larger than this false-positive rate needs (never above their own) (default {DIGEST_FPP})",
    )
    dig.add_argument(
        "--full", action="store_true", help="read every file again (default: keep the entries of unchanged files)"
    )

    demo = sub.add_parser(
        "demo", parents=[out], help="write a dataset with bloom filters and run selective queries on it"
    )
    demo.set_defaults(handler=_demo)
    demo.add_argument("--rows", type=int, default=2_000_000, help="rows to write (default 2,000,000)")
    demo.add_argument("--out", default="demo-out", help="output directory (default demo-out/)")
    kernel = sub.add_parser("kernel", parents=[out, remote], help="print the SBBF kernel the JVM chooses, and why")
    kernel.set_defaults(handler=_kernel)
    jar = sub.add_parser(
        "jar", parents=[out], help="print the path of the jar for the installed pyspark (for --jars / spark.jars)"
    )
    jar.set_defaults(handler=_jar)
    return parser


def _bad_input(e: Exception, subject: str | None) -> str | None:
    """The one line every command prints for bad input (exit 2), or None for a bug (a traceback).
    Bad input: the tools' :class:`BadInput`, an option that fails its check (ValueError), and an
    error the JVM raised (a Spark command's refusal: its root cause, e.g. retrofit's, after the
    command's ``subject`` path when the cause names no file)."""
    from .tools import BadInput
    from .tools.errors import first_line

    if isinstance(e, (BadInput, ValueError)):
        return first_line(e).removeprefix("bloomparquet: ")
    java = getattr(e, "java_exception", None)  # py4j's Py4JJavaError, without importing py4j
    if java is None:
        return None
    root = java
    while root.getCause() is not None and root.getCause() is not root:
        root = root.getCause()
    message = f"{root.getClass().getSimpleName()}: {first_line(Exception(str(root.getMessage())))}"
    return message if subject is None or subject in message else f"{subject}: {message}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``bloomparquet ...``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program's name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 fine, 1 ``verify`` found a problem, 2 bad input (one
        line on stderr, no traceback).
    """
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help, --version (0) and argparse's usage errors (2), as a status
        return done.code if isinstance(done.code, int) else 2
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except BrokenPipeError:
        return 0
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] != "pyarrow":
            raise
        print(
            f"bloomparquet: '{args.command}' reads Parquet files with pyarrow, which is not installed: "
            "pip install 'bloomparquet[cli]'",
            file=sys.stderr,
        )
        return 2
    except Exception as e:
        message = _bad_input(e, getattr(args, "path", None))
        if message is None:
            raise
        print(f"bloomparquet: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
