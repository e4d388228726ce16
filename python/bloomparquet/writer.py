"""Writing Parquet with right-sized bloom filters, and adding filters to existing files.

``write_bloom`` writes a DataFrame through the bloomparquet write format:
standard Parquet files whose chosen columns get a split block bloom filter per
row group, each sized for the row group's real distinct count at the requested
false-positive probability (no NDV guess needed). ``retrofit`` adds such filters
to Parquet files that already exist, without rewriting their data.

Every option (key, default, what it accepts) is in docs/writing.md, "Options";
they are checked here as the JVM checks them. Other options (``compression``,
``parquet.*``, ...) work as with ``format("parquet")``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import _options, _session
from ._connect import is_connect, sql_function_missing

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: The write format's name for ``df.write.format(...)`` and ``USING ...``.
WRITE_FORMAT = "bloomparquet"


def bloom_options(
    columns: Sequence[str] | str,
    fpp: float | Mapping[str, float] = 0.01,
    ndv: int | Mapping[str, int] | None = None,
) -> dict[str, str]:
    """The ``bloom.*`` write options that put bloom filters on ``columns``.

    For ``df.write.format(WRITE_FORMAT).options(**bloom_options(...))``, e.g. when
    partitioning the write yourself. Columns are checked against the schema by
    the JVM when the write starts, before any data is written.

    Parameters
    ----------
    columns : str or sequence of str
        The columns, a list or one comma-separated string (``"user_id, s.x"``).
    fpp : float or mapping of str to float
        The false-positive probability of every filter, or ``{column: fpp}``
        (columns not in it get ``bloom.fpp``'s default).
    ndv : int or mapping of str to int, optional
        Distinct values per row group, for every column or ``{column: ndv}``;
        by default counted exactly while writing.

    Returns
    -------
    dict of str to str
        The options, as Spark option strings.

    Raises
    ------
    ValueError
        No column, or a value an option does not accept (naming the option).

    Examples
    --------
    >>> opts = bp.bloom_options("user_id, email", fpp={"user_id": 0.001})
    >>> events = spark.read.parquet("/lake/events")
    >>> events.write.format(bp.WRITE_FORMAT).options(**opts).mode("overwrite").save("/lake/events_by_hand")
    """
    cols = _columns(columns)
    opts: dict[str, object] = {"bloom.columns": ",".join(cols)}
    if isinstance(fpp, Mapping):
        opts.update({f"bloom.fpp.{c}": v for c, v in fpp.items()})
    else:
        opts["bloom.fpp"] = fpp
    if isinstance(ndv, Mapping):
        opts.update({f"bloom.ndv.{c}": v for c, v in ndv.items()})
    elif ndv is not None:
        opts.update({f"bloom.ndv.{c}": ndv for c in cols})
    return _options.checked(opts, scopes=("write",))


def _columns(columns: Sequence[str] | str) -> list[str]:
    cols = _options.column_names(columns)
    if not cols:
        raise ValueError("columns: give at least one column")
    return cols


def write_bloom(
    df: DataFrame,
    path: str,
    columns: Sequence[str] | str,
    fpp: float | Mapping[str, float] = 0.01,
    ndv: int | Mapping[str, int] | None = None,
    mode: str = "error",
    **options: Any,
) -> None:
    """Write ``df`` to ``path`` as Parquet with bloom filters on ``columns``.

    The same as ``df.write.format(WRITE_FORMAT).options(**bloom_options(columns,
    fpp, ndv)).options(**options).mode(mode).save(path)``: standard Parquet
    files whose chosen columns get a filter per row group, each sized for the
    row group's real distinct count at ``fpp``. Where ``path`` has a bloom digest
    (:func:`build_digest`), it is rebuilt once the write has committed, as by
    :func:`refresh_digest`: lookups are decided by it for the new files too.

    Parameters
    ----------
    df : DataFrame
        The rows to write.
    path : str
        The output directory.
    columns : str or sequence of str
        The columns to filter, as for :func:`bloom_options`.
    fpp : float or mapping of str to float
        The false-positive probability, as for :func:`bloom_options`.
    ndv : int or mapping of str to int, optional
        Distinct values per row group, as for :func:`bloom_options`.
    mode : str
        Spark's save mode: ``error``, ``append``, ``overwrite`` or ``ignore``.
    **options
        Other write options (``compression``, ``parquet.*``, ...), ``bloom.*``
        ones checked too. ``partitionBy`` is not an option: partition
        ``df.write`` yourself with :func:`bloom_options`.

    Raises
    ------
    ValueError
        A ``bloom.*`` option that is unknown or has a bad value, before Spark runs.
    pyspark.errors.IllegalArgumentException
        From the JVM, naming the option: an unknown column or one of a type
        filters do not support (boolean, INT96 timestamps, arrays, maps).

    Examples
    --------
    >>> events = spark.read.parquet("/lake/events")
    >>> bp.write_bloom(events, "/lake/events_copy", ["user_id", "order_id"], fpp=0.01, compression="zstd")
    """
    opts = {**bloom_options(columns, fpp, ndv), **_options.checked(options)}
    df.write.format(WRITE_FORMAT).options(**opts).mode(mode).save(path)


def retrofit(
    spark: SparkSession,
    path: str,
    columns: Sequence[str] | str,
    fpp: float = 0.01,
    overwrite: bool = False,
    conf: Mapping[str, str] | None = None,
    format: str = "parquet",
) -> list[dict[str, Any]]:
    """Add bloom filters to existing Parquet files, a Delta Lake table or an Iceberg table, without rewriting their data.

    One Spark task per file. Each file's data, page indexes, existing filters
    and footer metadata are kept byte for byte; the new filters (sized for each row group's real distinct count
    at ``fpp``) and a new footer are written to a hidden temporary file that is
    renamed over the original only once complete and checked. A chunk that
    already has a filter keeps it unless ``overwrite``. Encrypted files are
    refused. ``conf`` adds Hadoop settings for the job (classic sessions only). Where ``path`` is a
    directory (or a Delta table) with a bloom digest (:func:`build_digest`), the digest is rebuilt
    once the files are rewritten, for the columns and bound it was built with.
    On Spark Connect this runs the ``bloomparquet_retrofit`` SQL function, which
    needs the server started with bloomparquet's session extension.

    Parameters
    ----------
    spark : SparkSession
        A classic or Spark Connect session with bloomparquet loaded.
    path : str
        A Parquet file, a directory (searched recursively) or a glob; with ``format="iceberg"``, the table
        as Spark SQL names it (``catalog.db.table``).
    columns : str or sequence of str
        The columns to filter, a list or one comma-separated string.
    fpp : float
        The false-positive probability of the new filters.
    overwrite : bool
        Replace the filters chunks already have.
    conf : mapping of str to str, optional
        Hadoop settings for the job (classic sessions only).
    format : str
        ``"parquet"``: the files under ``path``, each replaced in place. ``"delta"``: the files of
        the latest version of the Delta table at ``path`` (logical column names, also under
        column mapping); each file with filters is written beside the old one, and the new files
        replace the old ones in one commit through Delta's transaction API, a ``dataChange=false``
        rewrite as OPTIMIZE makes (statistics, deletion vectors, partition values kept). A
        concurrent commit that removed or rewrote one of the files fails it with Delta's conflict
        error, and nothing is committed. Needs Delta Lake loaded in the session (on Spark Connect,
        in the server's). ``"iceberg"``: the data files of the current snapshot of the Iceberg table named
        ``path`` (columns by name in its current schema, matched by field id in every file); each file
        with filters is written beside the old one, and the new files replace the old ones in one
        ``replace`` snapshot through Iceberg's ``RewriteFiles``, validated from the snapshot read
        (statistics, partition, split offsets and sort order kept). A concurrent commit that removed
        one of the files, or added a delete for one, fails it with Iceberg's validation error, and
        nothing is committed; a row-level command that read the old files and commits after it is
        failed by Iceberg in turn. A file some delete already applies to is left as it is, with status
        ``deletes-apply``, and a format version 3 table is refused (Iceberg would give the copied rows
        new row ids): Iceberg's ``rewrite_data_files``, with the table properties of
        :func:`iceberg_filter_properties` set, writes such files with filters. Needs Iceberg's Spark
        runtime loaded in the session.

    Returns
    -------
    list of dict
        One per file: ``path``, ``status`` (``retrofitted``, ``unchanged`` or, for Iceberg,
        ``deletes-apply``), ``columns``, ``chunks``, ``filter_bytes``, ``file_bytes``, ``seconds``; for
        Delta and Iceberg also ``version`` (committed: a Delta version, an Iceberg snapshot id) and, for
        each file retrofitted, ``target`` (its new file).

    Raises
    ------
    ValueError
        No column, an ``fpp`` outside (0, 1), ``conf`` over Spark Connect, or another ``format``.

    Examples
    --------
    >>> spark.range(1000).selectExpr("id AS k").write.parquet("/lake/plain")
    >>> [r["status"] for r in bp.retrofit(spark, "/lake/plain", "k", fpp=0.01)]
    """
    cols = _columns(columns)
    _options.checked({"bloom.columns": ",".join(cols), "bloom.fpp": fpp, "bloom.overwrite": overwrite}, ("retrofit",))
    if format not in ("parquet", "delta", "iceberg"):
        raise ValueError(f"retrofit: format = {format!r}: expected 'parquet', 'delta' or 'iceberg'")
    if is_connect(spark):
        return _retrofit_sql(spark, path, cols, float(fpp), bool(overwrite), conf, format)
    jvm = _session.jvm(spark)
    job = {
        "delta": jvm.io.bloomparquet.delta.DeltaRetrofit,
        "iceberg": jvm.io.bloomparquet.iceberg.IcebergRetrofit,
    }.get(format, jvm.io.bloomparquet.retrofit.RetrofitJob)
    jcols = jvm.java.util.ArrayList()
    for c in cols:
        jcols.add(c)
    jconf = jvm.java.util.HashMap()
    for k, v in (conf or {}).items():
        jconf.put(k, str(v))
    results = job.runForPython(_session.jvm_session(spark), path, jcols, float(fpp), bool(overwrite), jconf)
    return [_session.java_map(r) for r in results.toArray()]  # an array: a list ends its iteration in a JVM exception


def _retrofit_sql(
    spark: SparkSession,
    path: str,
    columns: list[str],
    fpp: float,
    overwrite: bool,
    conf: Mapping[str, str] | None,
    format: str,
) -> list[dict[str, Any]]:
    """Retrofit through the ``bloomparquet_retrofit`` SQL function: a Spark Connect session has no py4j."""
    if conf:
        raise ValueError(
            "retrofit: conf (per-job Hadoop settings) is not available over Spark Connect; set them on the "
            "Connect server (spark.hadoop.*) instead"
        )
    # Literals, not parameter markers: Spark 4.2's analyzer leaves markers in a table function's
    # arguments unbound (UNBOUND_SQL_PARAMETER).
    query = (
        f"SELECT * FROM bloomparquet_retrofit({_sql_string(path)}, {_sql_string(','.join(columns))}, "
        f"CAST({float(fpp)!r} AS DOUBLE), {str(bool(overwrite)).lower()}, {_sql_string(format)})"
    )
    try:
        rows = spark.sql(query).collect()
    except Exception as e:  # the server's AnalysisException, as pyspark raises it
        if "bloomparquet_retrofit" in str(e) and "UNRESOLVABLE_TABLE_VALUED_FUNCTION" in str(e):
            raise sql_function_missing(e, "bloomparquet_retrofit") from e
        raise
    # As the classic route gives them: a Delta table's unchanged files have no target.
    return [{k: v for k, v in r.asDict().items() if not (k == "target" and v is None)} for r in rows]


def _sql_string(value: str) -> str:
    """``value`` as a Spark SQL string literal (backslashes and quotes escaped, as Spark's parser reads them)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
