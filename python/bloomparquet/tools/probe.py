"""``bloomparquet probe COLUMN VALUE...``: what each row group's filter says about values.

Only the filter is consulted (no statistics, no dictionary): per row group the
answer is ``excluded`` (the filter rules out every value: no value can be
there), ``may-contain``, ``no filter`` or ``unreadable filter``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .filters import read_chunk_filter
from .footer import ParquetFooter, each_file
from .report import SCHEMA_VERSION, count, jsonable, table
from .storage import LOCAL, Storage
from .types import ColumnType, column_type
from .values import MAY_CONTAIN, hash_values, parse_value

EXCLUDED, MAY, NO_FILTER, UNREADABLE = "excluded", "may-contain", "no filter", "unreadable filter"


def parsed_values(texts: Sequence[str], col: ColumnType) -> list[Any]:
    """``texts`` parsed for ``col`` (BadInput on the first that cannot be)."""
    return [parse_value(t, col) for t in texts]


def run(paths: Sequence[str], column: str, texts: Sequence[str], storage: Storage = LOCAL) -> dict[str, Any]:
    """The ``probe --json`` report."""
    files = each_file(paths, storage, "probe", lambda footer: _probe_file(footer, column, texts))
    counts = {k: 0 for k in (EXCLUDED, MAY, NO_FILTER, UNREADABLE)}
    for f in files:
        for g in f["row_groups"]:
            counts[g["result"]] += 1
    return {
        "command": "probe",
        "version": SCHEMA_VERSION,
        "column": column,
        "values": list(texts),
        "files": files,
        "summary": {
            "row_groups": sum(counts.values()),
            **{k.replace(" ", "_").replace("-", "_"): v for k, v in counts.items()},
        },
    }


def _probe_file(footer: ParquetFooter, column: str, texts: Sequence[str]) -> dict[str, Any]:
    c = footer.column_index(column)
    col = column_type(footer.metadata.schema, c)
    values = parsed_values(texts, col)
    hashable = [v for v in values if v is not MAY_CONTAIN]
    hashes = hash_values(hashable, col) if hashable else np.empty(0, dtype=np.uint64)
    groups = []
    with footer.open() as f:
        for rg in range(footer.metadata.num_row_groups):
            cf = read_chunk_filter(footer, f, rg, c)
            if cf is None or cf.filter is None:
                result = NO_FILTER if cf is None else UNREADABLE
                per = [result] * len(values)
            else:
                hits = iter(cf.filter.check_hashes(hashes).tolist())
                per = [MAY if v is MAY_CONTAIN or next(hits) else EXCLUDED for v in values]
                result = EXCLUDED if all(p == EXCLUDED for p in per) else MAY
            groups.append(
                {
                    "index": rg,
                    "num_rows": footer.metadata.row_group(rg).num_rows,
                    "result": result,
                    "values": [{"value": t, "result": p} for t, p in zip(texts, per)],
                }
            )
    return {
        "path": footer.path,
        "column": col.path,
        "type": col.describe(),
        "parsed": [None if v is MAY_CONTAIN else _shown(v, col) for v in values],
        "row_groups": groups,
    }


def _shown(value: Any, col: ColumnType) -> Any:
    """A parsed value as JSON: a text column's as the text the user wrote (hex only where its bytes are
    not UTF-8, or the column is binary)."""
    if isinstance(value, (bytes, bytearray)) and col.kind in ("String", "Enum", "JSON"):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            pass
    return jsonable(value)


def render(report: dict[str, Any]) -> str:
    """The text form of a ``probe`` report."""
    rows = []
    for f in report["files"]:
        for g in f["row_groups"]:
            detail = "" if len(g["values"]) == 1 else ", ".join(f"{v['value']}: {v['result']}" for v in g["values"])
            rows.append([f["path"], g["index"], g["num_rows"], g["result"], detail])
    s = report["summary"]
    tail = (
        f"{s['excluded']} of {count(s['row_groups'], 'row group')} excluded, {s['may_contain']} may contain, "
        f"{s['no_filter']} without filter, {s['unreadable_filter']} unreadable"
    )
    return table(rows, ["file", "rg", "rows", "result", "per value"]) + "\n" + tail
