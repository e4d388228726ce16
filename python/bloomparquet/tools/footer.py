"""Opening a Parquet file's footer with pyarrow, and finding columns in it."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

from .errors import BadInput
from .storage import LOCAL, Storage

if TYPE_CHECKING:
    import pyarrow.parquet as pq


@dataclass(frozen=True)
class ParquetFooter:
    """A file's metadata plus where its footer starts (filters must end before it)."""

    path: str
    file: pq.ParquetFile
    metadata: pq.FileMetaData
    file_size: int
    footer_start: int
    storage: Storage = LOCAL

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
            return paths.index(name)
        folded = [i for i, p in enumerate(paths) if p.lower() == name.lower()]
        if len(folded) == 1:
            return folded[0]
        why = "is ambiguous" if folded else "is not a column"
        raise BadInput(f"{self.path}: {name!r} {why} (columns: {', '.join(paths)})")


def open_footer(path: str, storage: Storage = LOCAL) -> ParquetFooter:
    """Open ``path`` as Parquet; :class:`BadInput` when it is missing or not Parquet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        size = storage.size(path)
        with storage.open(path) as f:
            head = f.read(4)
            f.seek(max(0, size - 8))
            tail = f.read(8)
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None
    if size < 12 or head != b"PAR1" or tail[4:] != b"PAR1":
        raise BadInput(f"{path}: not a Parquet file (no PAR1 magic{'; encrypted footer?' if tail[4:] == b'PARE' else ''})")
    (footer_len,) = struct.unpack("<i", tail[:4])
    try:
        # pyarrow reads local files itself; other storage through a file object it keeps open.
        pf = pq.ParquetFile(path if storage is LOCAL else storage.open(path))
    except (pa.ArrowException, OSError) as e:
        raise BadInput(f"{path}: not a readable Parquet file ({str(e).splitlines()[0]})") from None
    return ParquetFooter(path, pf, pf.metadata, size, size - 8 - footer_len, storage)
