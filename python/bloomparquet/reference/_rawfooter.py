"""A footer decoded with the reference's compact-protocol reader (field ids from
parquet.thrift), before pyarrow sees the file: pyarrow aborts the whole process
(a C++ "Cannot decrypt ColumnMetadata") on a column encrypted with Parquet modular
encryption, so such columns must be found here first."""

from __future__ import annotations

from typing import Any

from ._thrift import read_struct

# FileMetaData: 2 schema, 4 row_groups, 8 encryption_algorithm. RowGroup: 1 columns.
# ColumnChunk: 3 meta_data, 8 crypto_metadata, 9 encrypted_column_metadata.
# SchemaElement: 4 name, 5 num_children (set on groups only).
_SCHEMA, _ROW_GROUPS, _COLUMNS = 2, 4, 1
_CRYPTO_METADATA, _ENCRYPTED_COLUMN_METADATA = 8, 9
_NAME, _NUM_CHILDREN = 4, 5


def decode(footer: bytes) -> dict[int, Any]:
    """The FileMetaData struct of ``footer`` (the bytes between the data and the length); ThriftError if none."""
    return read_struct(footer)[0]


def leaf_paths(meta: dict[int, Any]) -> list[str]:
    """Dotted leaf column paths in schema order, as the rest of the CLI names them."""
    elements = meta.get(_SCHEMA) or []
    out: list[str] = []
    # depth-first: (children still to visit, path) of each open group, the root's path empty
    stack: list[tuple[int, list[str]]] = []
    for i, e in enumerate(elements):
        if not isinstance(e, dict):
            break
        name = e.get(_NAME, b"")
        name = name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name)
        while stack and stack[-1][0] == 0:
            stack.pop()
        parent = stack[-1][1] if stack else []
        if stack:
            stack[-1] = (stack[-1][0] - 1, parent)
        path = parent + [name] if i else []
        children = e.get(_NUM_CHILDREN)
        if isinstance(children, int):
            stack.append((max(children, 0), path))
        elif i:
            out.append(".".join(path))
    return out


def encrypted_columns(meta: dict[int, Any]) -> list[int]:
    """Indices of the leaf columns whose metadata is encrypted in some row group."""
    found: set[int] = set()
    for group in meta.get(_ROW_GROUPS) or []:
        chunks = group.get(_COLUMNS) if isinstance(group, dict) else None
        for c, chunk in enumerate(chunks or []):
            if isinstance(chunk, dict) and (_CRYPTO_METADATA in chunk or _ENCRYPTED_COLUMN_METADATA in chunk):
                found.add(c)
    return sorted(found)


def row_group_bytes(meta: dict[int, Any], rg: int) -> int:
    """Compressed bytes of row group ``rg``: RowGroup.total_compressed_size, else the sum of
    its chunks' (read here: pyarrow aborts on an encrypted chunk's metadata)."""
    groups = meta.get(_ROW_GROUPS) or []
    group = groups[rg] if rg < len(groups) and isinstance(groups[rg], dict) else {}
    if isinstance(group.get(6), int):
        return int(group[6])
    return sum(int(c.get(7, 0)) for c in column_chunks(meta)[rg] if isinstance(c.get(7, 0), int)) if group else 0


def column_chunks(meta: dict[int, Any]) -> list[list[dict[int, Any]]]:
    """Per row group, each leaf column's ColumnMetaData (empty where absent)."""
    out = []
    for group in meta.get(_ROW_GROUPS) or []:
        chunks = group.get(_COLUMNS) if isinstance(group, dict) else None
        out.append([c.get(3, {}) if isinstance(c, dict) else {} for c in chunks or []])
    return out
