"""``bloomparquet verify [--rebuild]``: every stored filter well-formed, and (with
``--rebuild``) holding every value its chunk stores.

Well-formed: the header parses, algorithm BLOCK / hash XXHASH / compression
UNCOMPRESSED, numBytes a positive multiple of 32 up to 128 MiB, the filter lies
inside the file before the footer, ``bloom_filter_length`` (when set) is
header + bitset, and the filter holds its chunk's own min and max (an integer or
binary chunk's statistics; a filter excluding either is corrupt). With ``--rebuild`` each chunk's values are read with pyarrow and
hashed with the reference: a stored value the filter excludes means a corrupt
filter that would make readers skip rows that match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..reference import SplitBlockBloomFilter
from .chunkvalues import NotRebuildable, chunk_array, physical_hashes
from .filters import read_chunk_filter
from .footer import ParquetFooter, each_file
from .impossible import impossible_reason
from .report import SCHEMA_VERSION, count, jsonable, table
from .selection import selected_columns
from .storage import LOCAL, Storage
from .types import ColumnType, column_type

_SAMPLES = 5


def run(
    paths: Sequence[str], rebuild: bool = False, columns: Sequence[str] | None = None, storage: Storage = LOCAL
) -> dict[str, Any]:
    """The ``verify --json`` report; ``ok`` is False when any finding was made."""
    files = each_file(paths, storage, "verify", lambda footer: _verify_file(footer, rebuild, columns))
    findings = [x for f in files for x in f["findings"]]
    return {
        "command": "verify",
        "version": SCHEMA_VERSION,
        "rebuild": rebuild,
        "ok": not findings,
        "files": files,
        "summary": {"files": len(files), "filters": sum(f["filters"] for f in files), "findings": len(findings)},
    }


def _verify_file(footer: ParquetFooter, rebuild: bool, columns: Sequence[str] | None) -> dict[str, Any]:
    meta = footer.metadata
    findings: list[dict[str, Any]] = []
    notes: list[str] = []
    checked = 0
    with footer.open() as f:
        for rg in range(meta.num_row_groups):
            for c in selected_columns(footer, columns):
                cf = read_chunk_filter(footer, f, rg, c)
                if cf is None:
                    continue
                checked += 1
                col = column_type(meta.schema, c)
                for p in cf.problems:
                    findings.append({"row_group": rg, "column": col.path, "kind": "malformed", "message": p})
                impossible = cf.filter is not None and impossible_reason(meta.row_group(rg).column(c), cf.filter)
                if impossible:
                    findings.append({"row_group": rg, "column": col.path, "kind": "impossible", "message": impossible})
                if rebuild and cf.filter is not None:
                    try:
                        missing = _missing(footer, rg, col, cf.filter)
                    except NotRebuildable as e:
                        notes.append(f"row group {rg} {col.path}: not rebuilt ({e})")
                        continue
                    if missing[0]:
                        findings.append(
                            {
                                "row_group": rg,
                                "column": col.path,
                                "kind": "missing-values",
                                "message": f"{missing[0]} stored value(s) excluded by the filter: a reader "
                                "using it would skip rows that match",
                                "missing": missing[0],
                                "examples": missing[1],
                            }
                        )
    return {"path": footer.path, "filters": checked, "findings": findings, "notes": notes}


def _missing(footer: ParquetFooter, rg: int, col: ColumnType, filt: SplitBlockBloomFilter) -> tuple[int, list[Any]]:
    """How many distinct stored values the filter excludes, and a few of them."""
    import numpy as np

    array = chunk_array(footer, rg, col)
    hashes = physical_hashes(array, col)
    ok = filt.check_hashes(hashes)
    if ok.all():
        return 0, []
    bad = np.flatnonzero(~ok)
    unique_bad = np.unique(hashes[bad])
    examples = [jsonable(array[int(i)].as_py()) for i in bad[:_SAMPLES]]
    return int(unique_bad.size), examples


def render(report: dict[str, Any]) -> str:
    """The text form of a ``verify`` report."""
    rows = []
    for f in report["files"]:
        for x in f["findings"]:
            rows.append([f["path"], x["row_group"], x["column"], x["kind"], x["message"]])
    s = report["summary"]
    head = (
        f"{count(s['files'], 'file')}, {count(s['filters'], 'filter')} checked"
        f"{' (rebuilt from values)' if report['rebuild'] else ''}: {count(s['findings'], 'finding')}"
    )
    notes = [n for f in report["files"] for n in f["notes"]]
    parts = [head]
    if rows:
        parts.append(table(rows, ["file", "rg", "column", "finding", "detail"]))
    parts.extend(f"note: {n}" for n in notes)
    return "\n".join(parts)
