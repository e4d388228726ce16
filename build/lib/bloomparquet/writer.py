"""Writing Parquet with right-sized bloom filters, and adding filters to existing files.

``write_bloom`` writes a DataFrame through the bloomparquet write format:
standard Parquet files whose chosen columns get a split block bloom filter per
row group, each sized for the row group's real distinct count at the requested
false-positive probability (no NDV guess needed). ``retrofit`` adds such filters
to Parquet files that already exist, without rewriting their data.

Write options (keys are case-insensitive):

=======================  ===========================================================  ==============
key                      value                                                        default
=======================  ===========================================================  ==============
``bloom.columns``        comma-separated columns; ``a.b`` is field ``b`` of struct     none
                         ``a``; backticks quote names containing dots
``bloom.fpp``            false-positive probability, strictly between 0 and 1          ``0.01``
``bloom.fpp.<column>``   FPP of one column                                             ``bloom.fpp``
``bloom.ndv.<column>``   distinct values per row group (integer >= 1); size for it     counted
                         instead of counting
``bloom.sizing``         ``exact`` (count distinct values per row group) or ``fold``   ``exact``
``bloom.fold.maxndv``    ``fold`` only: values the initial filter is sized for         ``4194304``
=======================  ===========================================================  ==============

Other options (``compression``, ``parquet.*``, ...) work as with ``format("parquet")``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: The write format's name for ``df.write.format(...)`` and ``USING ...``.
WRITE_FORMAT = "bloomparquet"


def bloom_options(
    columns: Sequence[str] | str,
    fpp: float | Mapping[str, float] = 0.01,
    ndv: int | Mapping[str, int] | None = None,
) -> dict[str, str]:
    """The ``bloom.*`` options for ``columns``.

    ``fpp`` is one probability for every column or a ``{column: fpp}`` mapping
    (columns not in it get 0.01); ``ndv`` likewise gives distinct values per row
    group, by default counted exactly while writing. Values are checked by the
    JVM when the write starts, before any data is written.
    """
    cols = [c.strip() for c in (columns.split(",") if isinstance(columns, str) else columns) if c.strip()]
    if not cols:
        raise ValueError("columns: give at least one column")
    opts = {"bloom.columns": ",".join(cols)}
    if isinstance(fpp, Mapping):
        opts.update({f"bloom.fpp.{c}": str(float(v)) for c, v in fpp.items()})
    else:
        opts["bloom.fpp"] = repr(float(fpp))
    if isinstance(ndv, Mapping):
        opts.update({f"bloom.ndv.{c}": str(int(v)) for c, v in ndv.items()})
    elif ndv is not None:
        opts.update({f"bloom.ndv.{c}": str(int(ndv)) for c in cols})
    return opts


def write_bloom(
    df: DataFrame,
    path: str,
    columns: Sequence[str] | str,
    fpp: float | Mapping[str, float] = 0.01,
    ndv: int | Mapping[str, int] | None = None,
    mode: str = "errorifexists",
    **options: Any,
) -> None:
    """Write ``df`` to ``path`` as Parquet with bloom filters on ``columns``.

    Same as ``df.write.format(WRITE_FORMAT).options(**bloom_options(columns, fpp, ndv))
    .options(**options).mode(mode).save(path)``. ``options`` are any other
    write options (``partitionBy`` is not an option: partition ``df.write`` yourself
    with :func:`bloom_options`). Raises pyspark's ``IllegalArgumentException``
    naming the option for an unknown column, an FPP outside (0, 1), a bad NDV or
    an unsupported column type (boolean, INT96 timestamps, arrays, maps).
    """
    writer = df.write.format(WRITE_FORMAT).options(**bloom_options(columns, fpp, ndv)).mode(mode)
    if options:
        writer = writer.options(**{k: str(v) for k, v in options.items()})
    writer.save(path)


def retrofit(
    spark: SparkSession,
    path: str,
    columns: Sequence[str] | str,
    fpp: float = 0.01,
    overwrite: bool = False,
    conf: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Add bloom filters on ``columns`` to the Parquet files at ``path`` (a file,
    a directory searched recursively, or a glob), one Spark task per file.

    Each file's data, page indexes, existing filters and footer metadata are kept
    byte for byte; the new filters (sized for each row group's real distinct count
    at ``fpp``) and a new footer are written to a hidden temporary file that is
    renamed over the original only once complete and checked. A chunk that
    already has a filter keeps it unless ``overwrite``. Encrypted files are
    refused. ``conf`` adds Hadoop settings for the job. Returns one dict per file:
    path, status (``retrofitted`` or ``unchanged``), columns, chunks, filter_bytes,
    file_bytes, seconds.
    """
    cols = [c.strip() for c in (columns.split(",") if isinstance(columns, str) else columns) if c.strip()]
    if not cols:
        raise ValueError("columns: give at least one column")
    if not 0.0 < float(fpp) < 1.0:
        raise ValueError(f"fpp must be strictly between 0 and 1, got {fpp}")
    jvm = spark._jvm  # type: ignore[attr-defined]
    job = jvm.io.bloomparquet.retrofit.RetrofitJob
    jcols = jvm.java.util.ArrayList()
    for c in cols:
        jcols.add(c)
    jconf = jvm.java.util.HashMap()
    for k, v in (conf or {}).items():
        jconf.put(k, str(v))
    results = job.runForPython(spark._jsparkSession, path, jcols, float(fpp), bool(overwrite), jconf)  # type: ignore[attr-defined]
    return [{k: r[k] for k in r.keySet()} for r in results]
