"""Opening a Parquet file's footer with pyarrow, and finding columns in it."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from ..reference import _rawfooter as rawfooter
from .errors import BadInput, reading
from .report import progress
from .storage import LOCAL, Storage

if TYPE_CHECKING:
    import pyarrow.parquet as pq

T = TypeVar("T")


@dataclass(frozen=True)
class ParquetFooter:
    """A file's metadata plus where its footer starts (filters must end before it)."""

    path: str
    file: pq.ParquetFile
    metadata: pq.FileMetaData
    file_size: int
    footer_start: int
    storage: Storage = LOCAL
    thrift: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)  # rawfooter.decode
    # Leaf columns under Parquet modular encryption: pyarrow aborts the process on their metadata.
    encrypted: frozenset[int] = frozenset()

    def open(self) -> BinaryIO:
        """The file, opened for reading filters and values (the caller closes it)."""
        return self.storage.open(self.path)

    def column_paths(self) -> list[str]:
        """Dotted leaf column paths, in schema order."""
        return [self.metadata.schema.column(i).path for i in range(self.metadata.num_columns)]

    def column_index(self, name: str) -> int:
        """Index of leaf column ``name`` (exact, else the single case-insensitive match)."""
        paths = self.column_paths()
        if name in paths:
            return self._plaintext(paths.index(name))
        folded = [i for i, p in enumerate(paths) if p.lower() == name.lower()]
        if len(folded) == 1:
            return self._plaintext(folded[0])
        why = "is ambiguous" if folded else "is not a column"
        raise BadInput(f"{self.path}: {name!r} {why} (columns: {', '.join(paths)})")

    def _plaintext(self, index: int) -> int:
        if index in self.encrypted:
            raise self.encryption_refused(f"column {self.column_paths()[index]!r} is encrypted")
        return index

    def encryption_refused(self, what: str) -> BadInput:
        """:class:`BadInput` saying ``what``, naming the encrypted and the plaintext columns."""
        paths = self.column_paths()
        plain = [p for i, p in enumerate(paths) if i not in self.encrypted]
        return BadInput(
            f"{self.path}: {what} (Parquet modular encryption; this tool holds no keys); encrypted "
            f"columns: {', '.join(paths[i] for i in sorted(self.encrypted))}; plaintext columns, "
            f"for --columns: {', '.join(plain) or 'none'}"
        )


def open_footer(path: str, storage: Storage = LOCAL) -> ParquetFooter:
    """Open ``path`` as Parquet; :class:`BadInput` when it is missing, not Parquet,
    its footer does not decode or is encrypted (this tool holds no keys). Encrypted
    columns in a plaintext footer are found here, before pyarrow sees the file."""
    import pyarrow.parquet as pq

    with reading(path, "cannot read the file"):
        size = storage.size(path)
        with storage.open(path) as f:
            head = f.read(4)
            f.seek(max(0, size - 8))
            tail = f.read(8)
            (footer_len,) = struct.unpack("<i", tail[:4]) if len(tail) == 8 else (0,)
            footer_start = size - 8 - footer_len
            if tail[4:] == b"PARE" and head in (b"PAR1", b"PARE"):
                raise BadInput(
                    f"{path}: encrypted footer (Parquet modular encryption); this tool holds no keys "
                    "and reads no column of such a file"
                )
            if size < 12 or head != b"PAR1" or tail[4:] != b"PAR1":
                raise BadInput(f"{path}: not a Parquet file (no PAR1 magic)")
            if not 4 <= footer_start < size - 8:
                raise BadInput(
                    f"{path}: not a readable Parquet file (footer length {footer_len} does not fit in {size} bytes)"
                )
            f.seek(footer_start)
            raw = f.read(footer_len)
    with reading(path, "footer does not decode"):
        thrift = rawfooter.decode(raw)
    encrypted = frozenset(rawfooter.encrypted_columns(thrift))
    with reading(path, "not a readable Parquet file"):
        # pyarrow reads local files itself; other storage through a file object it keeps open.
        pf = pq.ParquetFile(path if storage is LOCAL else storage.open(path))
        return ParquetFooter(path, pf, pf.metadata, size, footer_start, storage, thrift, encrypted)


def each_file(paths: Sequence[str], storage: Storage, label: str, work: Callable[[ParquetFooter], T]) -> list[T]:
    """``work`` on each Parquet file under ``paths``, in order; any failure to read a
    file is :class:`BadInput` naming it (the commands' one way over their files)."""
    out = []
    for p in progress(storage.expand(paths), label):
        footer = open_footer(p, storage)
        with reading(p):
            out.append(work(footer))
    return out
