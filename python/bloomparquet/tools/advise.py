"""``bloomparquet advise``: which columns deserve a bloom filter, at what FPP.

Per column, from every footer and a sample of row groups read with pyarrow:

* **NDV per row group**: exact (``count_distinct``) in the sampled row groups.
* **Statistics pruning**: the share of row groups min/max statistics skip for a
  point lookup of a stored value, ``1 - mean_i(#row groups whose [min, max]
  overlaps row group i's) / R``. Sorted or clustered columns score near
  ``1 - 1/R``, shuffled ones near 0. At 0.5 or more a filter adds little.
* **Recurrence** ``c``: the share of row groups a stored value appears in. In
  the ``S`` sampled row groups a value appears on average in
  ``s = Σ ndv(rg) / ndv(all sampled rgs)`` of them; a value in ``m`` of all ``R``
  row groups gives ``s = 1 + (m-1)(S-1)/(R-1)``, so ``c = m / R`` with
  ``m = 1 + (s-1)(R-1)/(S-1)``. A present value can only be pruned from the
  other ``1 - c``; at 0.5 or more a filter rarely prunes one.
* **Dictionary vs filter**: mean dictionary page bytes vs mean filter bytes, and
  the share of row groups whose pages are all dictionary-encoded (where a
  reader's dictionary filter can rule out an absent value); in the others the
  writer fell back to plain pages and only statistics and a filter can.
* **FPP**: the candidate that minimises what a point lookup of an absent value
  reads per row group, ``filter bytes(ndv, p) + p · row group bytes`` (``--fpp``
  overrides); bytes as the writer and ``retrofit`` size filters (``sizing``).
* **Expected pruning by the filter**, probing n values: a row group holding none
  of them survives with probability ``1 - (1-p)^n``. Absent values: point
  ``1 - p``, IN of 100 ``(1-p)^100``. Present values: point ``(1-c)(1-p)``, IN of
  100 ``((1-c)(1-p))^100`` (values assumed independent).

A filter is recommended when the column has a filter hash, is not inside a list
or map (readers and ``retrofit`` use filters of top-level and struct fields only),
not every row group has one already, statistics prune less than half the row groups and values
recur in less than half of them.
"""

from __future__ import annotations

import bisect
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import _options
from ..reference._rawfooter import row_group_bytes
from .chunkvalues import NotRebuildable, chunk_array
from .encodings import dictionary_only
from .errors import BadInput, first_line, reading
from .footer import ParquetFooter, each_file
from .report import SCHEMA_VERSION, count, fmt_int, fmt_pct, progress, table
from .selection import selected_columns
from .sizing import num_bytes
from .storage import LOCAL, Storage
from .types import ColumnType, column_type

if TYPE_CHECKING:
    import pyarrow as pa

FPP_CANDIDATES = (0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0001)
IN_LIST = 100
_THRESHOLD = 0.5


@dataclass
class _Column:
    """What advise gathers about one column over all files."""

    col: ColumnType
    ranges: list[tuple[Any, Any]] = field(default_factory=list)
    no_stats: int = 0
    chunks: int = 0
    with_filter: int = 0
    dict_bytes: list[int] = field(default_factory=list)
    dict_only: list[bool] = field(default_factory=list)  # per chunk where the footer tells
    chunk_bytes: list[int] = field(default_factory=list)
    ndv: list[int] = field(default_factory=list)  # per sampled row group
    rg_bytes: list[int] = field(default_factory=list)  # per sampled row group, all columns
    uniques: list[Any] = field(default_factory=list)  # per sampled row group, for recurrence
    unreadable: str | None = None


def run(
    paths: Sequence[str],
    columns: Sequence[str] | None = None,
    sample: int = 16,
    fpp: float | None = None,
    storage: Storage = LOCAL,
) -> dict[str, Any]:
    """The ``advise --json`` report for the files under ``paths``."""
    if sample < 1:
        raise BadInput(f"--sample must be at least 1, got {sample}")
    if fpp is not None:  # the check and message of the fpp given to retrofit
        _options.check("bloom.fpp", fpp, scopes=("retrofit",))
    footers = each_file(paths, storage, "footers", lambda footer: footer)
    names = _names(footers[0], columns)
    cols = {n: _Column(column_type(footers[0].metadata.schema, footers[0].column_index(n))) for n in names}
    for footer in footers:
        with reading(footer.path):
            _scan_footer(footer, cols)
    picks = _sample(footers, sample)
    for footer, rg in progress(picks, "sampling"):
        with reading(footer.path):
            _read_sample(footer, rg, cols)
    total_rgs = sum(f.metadata.num_row_groups for f in footers)
    advice = [_advise(c, total_rgs, fpp, asked=bool(columns)) for c in cols.values()]
    return {
        "command": "advise",
        "version": SCHEMA_VERSION,
        "paths": list(paths),
        "files": len(footers),
        "row_groups": total_rgs,
        "sampled_row_groups": len(picks),
        "columns": advice,
        "retrofit": _commands(paths, advice),
    }


def _names(footer: ParquetFooter, columns: Sequence[str] | None) -> list[str]:
    idx = selected_columns(footer, columns)
    types = [column_type(footer.metadata.schema, i) for i in idx]
    return [t.path for t in types if columns or t.hashable]


def _scan_footer(footer: ParquetFooter, cols: dict[str, _Column]) -> None:
    meta = footer.metadata
    index = {n: footer.column_index(n) for n in cols}
    dict_only = dictionary_only(footer)
    for rg in range(meta.num_row_groups):
        group = meta.row_group(rg)
        for name, c in cols.items():
            chunk = group.column(index[name])
            c.chunks += 1
            c.chunk_bytes.append(chunk.total_compressed_size)
            if chunk.bloom_filter_offset is not None and chunk.bloom_filter_offset >= 0:
                c.with_filter += 1
            if chunk.has_dictionary_page and chunk.dictionary_page_offset is not None:
                c.dict_bytes.append(max(0, chunk.data_page_offset - chunk.dictionary_page_offset))
            if dict_only.get((rg, index[name])) is not None:
                c.dict_only.append(bool(dict_only[(rg, index[name])]))
            try:
                st = chunk.statistics
                rng = (st.min, st.max) if st is not None and st.has_min_max else None
            except Exception:  # noqa: BLE001 - pyarrow cannot convert some statistics
                rng = None
            if rng is None:
                c.no_stats += 1
            else:
                c.ranges.append(rng)


def _sample(footers: list[ParquetFooter], sample: int) -> list[tuple[ParquetFooter, int]]:
    """Up to ``sample`` row groups spread evenly over all files."""
    all_rgs = [(f, rg) for f in footers for rg in range(f.metadata.num_row_groups)]
    if len(all_rgs) <= sample:
        return all_rgs
    step = len(all_rgs) / sample
    return [all_rgs[int(i * step)] for i in range(sample)]


def _read_sample(footer: ParquetFooter, rg: int, cols: dict[str, _Column]) -> None:
    import pyarrow as pa
    import pyarrow.compute as pc

    rg_bytes = row_group_bytes(footer.thrift, rg)
    for c in cols.values():
        if c.unreadable or not c.col.hashable:
            continue
        try:
            array = chunk_array(footer, rg, c.col)
        except NotRebuildable as e:
            c.unreadable = str(e)
            continue
        try:
            uniques = pc.unique(_countable(array))
        except (pa.ArrowNotImplementedError, pa.ArrowTypeError) as e:
            c.unreadable = f"pyarrow cannot count distinct {array.type} values ({first_line(e)})"
            continue
        c.ndv.append(len(uniques))
        c.rg_bytes.append(rg_bytes)
        c.uniques.append(uniques)


def _countable(array: pa.Array) -> pa.Array:
    """``array`` in a type every sample shares and ``unique`` takes: dictionaries
    decoded, extension types (UUID, ...) as their storage."""
    import pyarrow as pa

    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    return array.storage if isinstance(array.type, pa.ExtensionType) else array


def _stats_prune_share(c: _Column) -> float | None:
    """Share of row groups min/max skip for a point lookup of a stored value (None: no statistics)."""
    if not c.ranges or c.no_stats:
        return None
    try:
        mins = sorted(r[0] for r in c.ranges)
        maxs = sorted(r[1] for r in c.ranges)
        n = len(c.ranges)
        overlaps = [n - (n - bisect.bisect_right(mins, hi)) - bisect.bisect_left(maxs, lo) for lo, hi in c.ranges]
    except TypeError:  # incomparable statistics (mixed types across files)
        return None
    return 1.0 - sum(overlaps) / (n * n)


def _recurrence(c: _Column, total_rgs: int) -> float | None:
    """Share of all row groups a stored value appears in, extrapolated from the sample."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not c.uniques or sum(c.ndv) == 0:
        return None
    try:
        union = len(pc.unique(pa.chunked_array(c.uniques)))
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # files disagree on the column's Arrow type
        return None
    spread, sampled = sum(c.ndv) / union, len(c.uniques)
    m = 1 + (spread - 1) * (total_rgs - 1) / (sampled - 1) if sampled > 1 else 1.0
    return min(1.0, m / total_rgs)


def _choose_fpp(c: _Column) -> float:
    def cost(p: float) -> float:
        return sum(num_bytes(n, p) + p * b for n, b in zip(c.ndv, c.rg_bytes)) / len(c.ndv)

    return min(reversed(FPP_CANDIDATES), key=cost)  # ties: the larger p (smaller filter)


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _advise(c: _Column, total_rgs: int, fpp: float | None, asked: bool = False) -> dict[str, Any]:
    """One column's advice; ``asked``: the user named the columns (``--columns``), so columns whose
    values are continuous or whose dictionaries already hold every value are still weighed for a
    filter (equality lookups on them are what the user says they run)."""
    stats = _stats_prune_share(c)
    recur = _recurrence(c, total_rgs)
    out: dict[str, Any] = {
        "column": c.col.path,
        "type": c.col.describe(),
        "row_groups": c.chunks,
        "with_filter": c.with_filter,
        "ndv_per_row_group": {
            "min": min(c.ndv, default=None),
            "mean": _mean(c.ndv),
            "max": max(c.ndv, default=None),
            "sampled": len(c.ndv),
        },
        "stats_prune_share": stats,
        "stats_can_prune": stats is not None and stats >= _THRESHOLD,
        "recurrence": recur,
        "dictionary_bytes": _mean(c.dict_bytes),
        "chunk_bytes": _mean(c.chunk_bytes),
        "dictionary_only_share": _mean([float(d) for d in c.dict_only]),
        "fpp": None,
        "filter_bytes_per_row_group": None,
        "filter_bytes_total": None,
        "expected_pruned": None,
        "recommend": False,
        "reason": "",
    }
    if not c.col.hashable or c.unreadable or not any(c.ndv):
        out["reason"] = (
            f"{c.col.physical} has no bloom filter hash"
            if not c.col.hashable
            else f"values not readable: {c.unreadable}"
            if c.unreadable
            else "no values (every sampled row group holds only nulls)"
            if c.ndv
            else "no values"
        )
        return out
    p = fpp if fpp is not None else _choose_fpp(c)
    per_rg = _mean([num_bytes(n, p) for n in c.ndv]) or 0.0
    r = recur or 0.0
    out.update(
        {
            "fpp": p,
            "filter_bytes_per_row_group": per_rg,
            "filter_bytes_total": per_rg * total_rgs,
            "expected_pruned": {
                "absent_point": 1 - p,
                f"absent_in_{IN_LIST}": (1 - p) ** IN_LIST,
                "present_point": (1 - r) * (1 - p),
                f"present_in_{IN_LIST}": ((1 - r) * (1 - p)) ** IN_LIST,
            },
        }
    )
    if c.col.repeated:
        out["reason"] = (
            "inside a list or map (many values per row): bloomparquet neither prunes with nor retrofits filters there"
        )
    elif c.with_filter == c.chunks:
        out["reason"] = "every row group already has a filter (see inspect for its FPP)"
    elif stats is not None and stats >= _THRESHOLD:
        out["reason"] = f"min/max statistics already prune {stats:.0%} of row groups for a point lookup"
    elif not asked and out["dictionary_only_share"] == 1.0:
        out["reason"] = (
            "every row group's pages are dictionary-encoded: bloomparquet prunes by the dictionary while planning "
            "(bloom.dictionaries), exactly and with no filter to store (name it in --columns to weigh a filter)"
        )
    elif not asked and c.col.physical in ("FLOAT", "DOUBLE"):
        out["reason"] = (
            "floating-point values are rarely looked up by equality (name it in --columns to weigh a filter)"
        )
    elif r >= _THRESHOLD:
        out["reason"] = (
            f"a stored value appears in {r:.0%} of row groups: a filter prunes only absent "
            "values (a dictionary does that too)"
        )
    else:
        out["recommend"] = True
        out["reason"] = (
            f"{out['ndv_per_row_group']['mean']:,.0f} distinct values per row group, "
            f"statistics prune {stats or 0:.0%}: a filter at fpp {p:g} skips "
            f"{1 - p:.0%} of row groups for an absent value"
        )
        share = out["dictionary_only_share"]
        if share is not None and share < 1:
            out["reason"] += (
                f"; dictionaries fell back to plain pages in {1 - share:.0%} of row groups, "
                "where no dictionary filter can rule a value out"
            )
    return out


def _commands(paths: Sequence[str], advice: list[dict[str, Any]]) -> list[str]:
    by_fpp: dict[float, list[str]] = {}
    for a in advice:
        if a["recommend"]:
            by_fpp.setdefault(a["fpp"], []).append(a["column"])
    return [
        f"bloomparquet retrofit {shlex.quote(path)} --columns {shlex.quote(','.join(cs))} --fpp {p:g}"
        for p, cs in sorted(by_fpp.items())
        for path in paths
    ]


def render(report: dict[str, Any]) -> str:
    """The text form of an ``advise`` report."""
    rows = []
    for a in report["columns"]:
        ndv = a["ndv_per_row_group"]
        e = a["expected_pruned"] or {}
        rows.append(
            [
                a["column"],
                fmt_int(ndv["mean"]),
                fmt_pct(a["stats_prune_share"]),
                fmt_pct(a["recurrence"]),
                fmt_int(a["dictionary_bytes"]),
                fmt_pct(a["dictionary_only_share"]),
                fmt_int(a["filter_bytes_per_row_group"]),
                "-" if a["fpp"] is None else f"{a['fpp']:g}",
                fmt_pct(e.get("absent_point")),
                fmt_pct(e.get(f"absent_in_{IN_LIST}")),
                fmt_pct(e.get("present_point")),
                "yes" if a["recommend"] else "no",
            ]
        )
    head = (
        f"{count(report['files'], 'file')}, {count(report['row_groups'], 'row group')}, "
        f"{report['sampled_row_groups']} sampled for distinct counts"
    )
    body = table(
        rows,
        [
            "column",
            "ndv/rg",
            "stats prune",
            "recurs in",
            "dict B",
            "dict only",
            "filter B",
            "fpp",
            "pruned: absent",
            f"absent IN {IN_LIST}",
            "present",
            "filter?",
        ],
    )
    reasons = "\n".join(f"{a['column']}: {a['reason']}" for a in report["columns"])
    cmds = "\n".join(report["retrofit"]) or "(no column needs a filter)"
    return f"{head}\n{body}\n\n{reasons}\n\nto apply:\n{cmds}"
