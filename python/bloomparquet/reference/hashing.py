"""xxHash64 of the PLAIN encoding of Parquet values, per physical type."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import numpy as np
import xxhash

from ._xxh64 import xxh64_u32, xxh64_u64

PhysicalType = Literal["INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"]

_FIXED_WIDTH: dict[str, np.dtype] = {
    "INT32": np.dtype("<i4"),
    "INT64": np.dtype("<i8"),
    "FLOAT": np.dtype("<f4"),
    "DOUBLE": np.dtype("<f8"),
}


def xxh64_plain(values: np.ndarray | Iterable[bytes], physical_type: PhysicalType) -> np.ndarray:
    """Return the uint64 xxHash64 (seed 0) of each value's PLAIN encoding.

    ``INT32``/``INT64``/``FLOAT``/``DOUBLE``: ``values`` is anything numpy turns
    into an array of that width (unsigned values keep their bits; floats hash
    their raw IEEE-754 bits, so ``-0.0`` and ``0.0`` differ, as do NaN payloads).
    ``BYTE_ARRAY``/``FIXED_LEN_BYTE_ARRAY``: an iterable of ``bytes`` (``str`` is
    encoded as UTF-8); only the bytes are hashed, never PLAIN's length prefix.

    Parameters
    ----------
    values : numpy.ndarray or iterable of bytes
        The values, as their physical type stores them.
    physical_type : {"INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}
        Parquet's physical type of the column.

    Returns
    -------
    numpy.ndarray
        One ``uint64`` hash per value.

    Examples
    --------
    >>> hashes = xxh64_plain(np.array([1, 2, 3], dtype=np.int64), "INT64")
    >>> text_hashes = xxh64_plain([b"u-1", b"u-2"], "BYTE_ARRAY")
    """
    if physical_type in _FIXED_WIDTH:
        dtype = _FIXED_WIDTH[physical_type]
        arr = np.asarray(values)
        if arr.dtype.kind in "ui" and dtype.kind == "i" and arr.dtype.itemsize == dtype.itemsize:
            arr = arr.view(dtype)  # same width: keep the bits (uint32 -> INT32)
        else:
            arr = arr.astype(dtype, copy=False)
        return xxh64_u32(arr) if dtype.itemsize == 4 else xxh64_u64(arr)
    if physical_type in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        digest = xxhash.xxh64_intdigest
        out = [digest(v.encode("utf-8") if isinstance(v, str) else bytes(v)) for v in values]
        return np.array(out, dtype=np.uint64)
    raise ValueError(
        f"physical_type {physical_type!r} is not one of INT32, INT64, FLOAT, DOUBLE, "
        "BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY (INT96 and BOOLEAN have no bloom filter hash here)"
    )
