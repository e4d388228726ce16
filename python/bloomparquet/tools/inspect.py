"""``bloomparquet inspect``: every column chunk's filter, what its bits say, and its statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, BinaryIO

from . import estimate
from .filters import read_chunk_filter
from .footer import ParquetFooter, each_file
from .report import SCHEMA_VERSION, count, fmt_int, fmt_pct, short, statistics, table
from .selection import selected_columns
from .storage import LOCAL, Storage
from .types import ColumnType, column_type


def run(paths: Sequence[str], columns: Sequence[str] | None = None, storage: Storage = LOCAL) -> dict[str, Any]:
    """The ``inspect --json`` report for the files under ``paths`` (on ``storage``)."""
    files = each_file(paths, storage, "inspect", lambda footer: _inspect_file(footer, columns))
    return {"command": "inspect", "version": SCHEMA_VERSION, "files": files, "columns": _totals(files)}


def _inspect_file(footer: ParquetFooter, columns: Sequence[str] | None) -> dict[str, Any]:
    meta = footer.metadata
    cols = selected_columns(footer, columns)
    types = {c: column_type(meta.schema, c) for c in cols}
    groups = []
    with footer.open() as f:
        for rg in range(meta.num_row_groups):
            group = meta.row_group(rg)
            chunks = [_chunk(footer, f, rg, c, types[c], group.column(c)) for c in cols]
            groups.append({"index": rg, "num_rows": group.num_rows, "columns": chunks})
    return {"path": footer.path, "num_rows": meta.num_rows, "row_groups": groups}


def _chunk(footer: ParquetFooter, f: BinaryIO, rg: int, c: int, ctype: ColumnType, meta_chunk: Any) -> dict[str, Any]:
    """One chunk's entry: its filter (if any), what the bits say, its statistics."""
    cf = read_chunk_filter(footer, f, rg, c)
    out: dict[str, Any] = {
        "column": ctype.path,
        "type": ctype.describe(),
        "num_values": meta_chunk.num_values,
        "has_filter": cf is not None,
        "filter_offset": None if cf is None else cf.offset,
        "filter_length": None if cf is None else cf.length,
        "has_filter_length": cf is not None and cf.length is not None,
        "header_bytes": None if cf is None else cf.header_bytes,
        "filter_bytes": None if cf is None else cf.num_bytes,
        "fill": None,
        "estimated_ndv": None,
        "fpp": None,
        "problems": [] if cf is None else cf.problems,
        "statistics": statistics(meta_chunk),
    }
    if cf is not None and cf.filter is not None:
        out["fill"] = estimate.fill(cf.filter)
        out["estimated_ndv"] = estimate.estimated_ndv(cf.filter)
        out["fpp"] = estimate.fpp(cf.filter)
    return out


def _totals(files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per column: the files holding it and those with a filter on it, its chunks, filter bytes, NDV and FPPs."""
    by: dict[str, dict[str, Any]] = {}
    for file in files:
        chunks = [ch for group in file["row_groups"] for ch in group["columns"]]
        for column in dict.fromkeys(ch["column"] for ch in chunks):
            t = by.setdefault(
                column,
                {
                    "column": column,
                    "files": 0,
                    "files_with_filter": 0,
                    "chunks": 0,
                    "chunks_with_filter": 0,
                    "filter_bytes": 0,
                    "estimated_ndv": 0.0,
                    "mean_fpp": None,
                    "max_fpp": None,
                    "_fpps": [],
                },
            )
            t["files"] += 1
            t["files_with_filter"] += any(ch["has_filter"] for ch in chunks if ch["column"] == column)
        for ch in chunks:
            t = by[ch["column"]]
            t["chunks"] += 1
            if ch["has_filter"]:
                t["chunks_with_filter"] += 1
                t["filter_bytes"] += ch["filter_bytes"] or 0
                t["estimated_ndv"] += ch["estimated_ndv"] or 0.0
                if ch["fpp"] is not None:
                    t["_fpps"].append(ch["fpp"])
    for t in by.values():
        fpps = t.pop("_fpps")
        if fpps:
            t["mean_fpp"], t["max_fpp"] = sum(fpps) / len(fpps), max(fpps)
    return list(by.values())


def render(report: dict[str, Any], summary: bool | None = None) -> str:
    """The text form of an ``inspect`` report: every file's row groups then the totals per column, or
    (``summary``; by default when the report covers more than one file) the totals alone."""
    files = report["files"]
    if summary is None:
        summary = len(files) > 1
    out = []
    if summary:
        groups = sum(len(f["row_groups"]) for f in files)
        rows = sum(f["num_rows"] for f in files)
        out.append(
            f"{count(len(files), 'file')}, {count(groups, 'row group')}, {count(rows, 'row')} (--detail: per row group)"
        )
    for file in [] if summary else files:
        rows = []
        for g in file["row_groups"]:
            for ch in g["columns"]:
                st = ch["statistics"] or {}
                rows.append(
                    [
                        g["index"],
                        ch["column"],
                        fmt_int(ch["filter_bytes"]) if ch["has_filter"] else "none",
                        "-" if ch["filter_offset"] is None else ch["filter_offset"],
                        "-" if not ch["has_filter"] else ("yes" if ch["has_filter_length"] else "no"),
                        fmt_int(ch["estimated_ndv"]),
                        fmt_pct(ch["fpp"]),
                        short(st.get("min")),
                        short(st.get("max")),
                        "; ".join(ch["problems"]),
                    ]
                )
        out.append(f"{file['path']}: {count(file['num_rows'], 'row')}, {count(len(file['row_groups']), 'row group')}")
        out.append(
            table(rows, ["rg", "column", "filter B", "offset", "length", "~ndv", "fpp", "min", "max", "problems"])
        )
        out.append("")
    totals = [
        [
            t["column"],
            f"{t['files_with_filter']}/{t['files']}",
            t["chunks"],
            t["chunks_with_filter"],
            fmt_int(t["filter_bytes"]),
            fmt_int(t["estimated_ndv"]),
            fmt_pct(t["mean_fpp"]),
            fmt_pct(t["max_fpp"]),
        ]
        for t in report["columns"]
    ]
    out.append("per column" if summary else "totals")
    out.append(
        table(
            totals,
            [
                "column",
                "files with filter",
                "row groups",
                "with filter",
                "filter B",
                "~ndv (sum)",
                "mean fpp",
                "max fpp",
            ],
        )
    )
    return "\n".join(out)
