"""``bloomparquet retrofit --dry-run``: which files a retrofit would rewrite, and how many bytes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .filters import read_chunk_filter
from .footer import ParquetFooter, each_file
from .report import SCHEMA_VERSION, count, table
from .selection import selected_columns
from .storage import LOCAL, Storage


def run(paths: Sequence[str], columns: Sequence[str], overwrite: bool, storage: Storage = LOCAL) -> dict[str, Any]:
    """The ``retrofit --dry-run --json`` report: per file the chunks that would get a filter."""
    files = each_file(paths, storage, "planning", lambda footer: _file(footer, columns, overwrite))
    rewritten = [f for f in files if f["status"] == "would retrofit"]
    return {
        "command": "retrofit",
        "version": SCHEMA_VERSION,
        "dry_run": True,
        "files": files,
        "summary": {
            "files": len(files),
            "files_rewritten": len(rewritten),
            "chunks": sum(f["chunks"] for f in files),
            "bytes_rewritten": sum(f["file_bytes"] for f in rewritten),
        },
    }


def _file(footer: ParquetFooter, columns: Sequence[str], overwrite: bool) -> dict[str, Any]:
    if footer.encrypted:
        raise footer.encryption_refused("retrofit refuses encrypted files")
    cols = selected_columns(footer, columns)
    chunks = 0
    with footer.open() as f:
        for rg in range(footer.metadata.num_row_groups):
            chunks += sum(overwrite or read_chunk_filter(footer, f, rg, c) is None for c in cols)
    return {
        "path": footer.path,
        "status": "would retrofit" if chunks else "unchanged",
        "chunks": chunks,
        "file_bytes": footer.file_size,
    }


def render(report: dict[str, Any]) -> str:
    """The text form of a dry run."""
    rows = [[f["status"], f["chunks"], f"{f['file_bytes']:,}", f["path"]] for f in report["files"]]
    s = report["summary"]
    tail = (
        f"dry run: {count(s['files_rewritten'], 'file')} of {s['files']} would be rewritten "
        f"({s['bytes_rewritten']:,} bytes read and written), {count(s['chunks'], 'chunk')} would get a filter; "
        "nothing was written"
    )
    return table(rows, ["status", "chunks", "bytes", "file"]) + "\n" + tail
