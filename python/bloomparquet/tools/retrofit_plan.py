"""``bloomparquet retrofit --dry-run``: which files a retrofit would rewrite, how many bytes, and an
estimate of the time it takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .filters import read_chunk_filter
from .footer import ParquetFooter, each_file
from .report import SCHEMA_VERSION, count, table
from .selection import selected_columns
from .storage import LOCAL, Storage

# One core's retrofit time, by what a file holds: a fit over 5 column sets of 8 pyarrow files
# (int64, UUID and 40-character strings, a double; 1 M rows each) within 10 % of each measured time,
# on a 2-core VM, local disk, page cache warm. Re-measure with bench/retrofit_rate.py.
_SECONDS_PER_FILE = 0.076  # a task, the footer, the new file's checks and rename
_SECONDS_PER_VALUE = 57e-9  # decode and hash one value of a chunk that gets a filter
_SECONDS_PER_COLUMN_BYTE = 2.2e-9  # per uncompressed byte of such a chunk
_SECONDS_PER_FILE_BYTE = 1 / 3.8e9  # every byte is copied (at page-cache speed; slower from disks or stores)
_MEASURED = "rates of bench/retrofit_rate.py on a 2-core VM, local disk"


def run(paths: Sequence[str], columns: Sequence[str], overwrite: bool, storage: Storage = LOCAL) -> dict[str, Any]:
    """The ``retrofit --dry-run --json`` report: per file the chunks that would get a filter."""
    files = each_file(paths, storage, "planning", lambda footer: _file(footer, columns, overwrite))
    rewritten = [f for f in files if f["status"] == "would retrofit"]
    seconds = [_seconds(f) for f in files]
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
            "estimated_core_seconds": round(sum(seconds), 3),
            "estimated_largest_file_seconds": round(max(seconds, default=0.0), 3),
        },
    }


def _seconds(file: dict[str, Any]) -> float:
    """One core's time to retrofit ``file`` (only a task and the footer if nothing changes)."""
    if file["status"] != "would retrofit":
        return _SECONDS_PER_FILE
    values, column_bytes, file_bytes = int(file["values"]), int(file["column_bytes"]), int(file["file_bytes"])
    return (
        _SECONDS_PER_FILE
        + values * _SECONDS_PER_VALUE
        + column_bytes * _SECONDS_PER_COLUMN_BYTE
        + file_bytes * _SECONDS_PER_FILE_BYTE
    )


def _file(footer: ParquetFooter, columns: Sequence[str], overwrite: bool) -> dict[str, Any]:
    if footer.encrypted:
        raise footer.encryption_refused("retrofit refuses encrypted files")
    cols = selected_columns(footer, columns)
    chunks = values = column_bytes = 0
    with footer.open() as f:
        for rg in range(footer.metadata.num_row_groups):
            group = footer.metadata.row_group(rg)
            for c in cols:
                if overwrite or read_chunk_filter(footer, f, rg, c) is None:
                    chunk = group.column(c)
                    chunks += 1
                    values += chunk.num_values
                    column_bytes += chunk.total_uncompressed_size
    return {
        "path": footer.path,
        "status": "would retrofit" if chunks else "unchanged",
        "chunks": chunks,
        "file_bytes": footer.file_size,
        "values": values,
        "column_bytes": column_bytes,
    }


def render(report: dict[str, Any]) -> str:
    """The text form of a dry run."""
    rows = [[f["status"], f["chunks"], f"{f['file_bytes']:,}", f["path"]] for f in report["files"]]
    s = report["summary"]
    tail = (
        f"dry run: {count(s['files_rewritten'], 'file')} of {s['files']} would be rewritten "
        f"({s['bytes_rewritten']:,} bytes read and written), {count(s['chunks'], 'chunk')} would get a filter; "
        "nothing was written\n"
        f"estimated time: {s['estimated_core_seconds']:,.1f} s of one core's work, so about that divided by the cores "
        f"the job gets (one task a file), and no less than {s['estimated_largest_file_seconds']:,.1f} s, the largest "
        f"file's ({_MEASURED}; copying from object stores or cold disks is slower)"
    )
    return table(rows, ["status", "chunks", "bytes", "file"]) + "\n" + tail
