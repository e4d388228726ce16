"""Where the tools read files from: the local file system (no JVM), or any Hadoop
path (``hdfs://``, ``s3a://``, ``abfs://`` ...) through a Spark session's JVM.

Both hand out seekable binary files, so pyarrow and the reference reader work
unchanged on either; a Hadoop file is read in blocks over py4j.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from .errors import BadInput
from .paths import expand

if TYPE_CHECKING:
    from pyspark.sql import SparkSession
    from typing_extensions import Buffer


class Storage(Protocol):
    """Lists data files and opens them for reading."""

    def expand(self, paths: Sequence[str]) -> list[str]:
        """Every data file under ``paths`` (files, directories, globs); :class:`BadInput` when none."""

    def size(self, path: str) -> int:
        """The file's length in bytes."""

    def open(self, path: str) -> BinaryIO:
        """A seekable binary file (a context manager)."""


class LocalStorage:
    """The local file system, read with Python's own files."""

    def expand(self, paths: Sequence[str]) -> list[str]:
        return expand(paths)

    def size(self, path: str) -> int:
        return os.path.getsize(path)

    def open(self, path: str) -> BinaryIO:
        return open(path, "rb")


LOCAL = LocalStorage()

# Bytes fetched per py4j call: a footer, a filter or a page read is usually one call.
_BLOCK = 1 << 20


class HadoopStorage:
    """Any path the Spark session's Hadoop configuration can read, listed and read through its JVM."""

    def __init__(self, spark: SparkSession) -> None:
        from .._session import jvm_bridge

        self._bridge = jvm_bridge(spark)

    def _call(self, what: str, path: str, call: Callable[[], Any]) -> Any:
        from py4j.protocol import Py4JJavaError

        try:
            return call()
        except Py4JJavaError as e:
            first = str(e.java_exception.getMessage() or e.java_exception.toString()).splitlines()[0]
            raise BadInput(f"{path}: {what} failed ({first})") from None

    def expand(self, paths: Sequence[str]) -> list[str]:
        out: list[str] = []
        for p in paths:
            out.extend(self._call("listing", p, lambda p=p: list(self._bridge.listDataFiles(p))))  # type: ignore[misc]
        unique = list(dict.fromkeys(out))
        if not unique:
            raise BadInput(f"{', '.join(paths)}: no data files (names starting with _ or . are skipped)")
        return unique

    def size(self, path: str) -> int:
        return int(self._call("reading", path, lambda: self._bridge.fileLength(path)))

    def open(self, path: str) -> BinaryIO:
        return io.BufferedReader(_HadoopFile(self, path, self.size(path)), buffer_size=_BLOCK)

    def read(self, path: str, offset: int, length: int) -> bytes:
        return bytes(self._call("reading", path, lambda: self._bridge.readRange(path, offset, length)))


class _HadoopFile(io.RawIOBase):
    """A read-only, seekable view of one Hadoop file; each read is one ranged read in the JVM."""

    def __init__(self, storage: HadoopStorage, path: str, size: int) -> None:
        self._storage, self.name, self._size, self._pos = storage, path, size, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer: Buffer) -> int:
        n = min(memoryview(buffer).nbytes, self._size - self._pos)
        if n <= 0:
            return 0
        data = self._storage.read(self.name, self._pos, n)
        buffer[: len(data)] = data  # type: ignore[index]  # io hands a writable bytes buffer
        self._pos += len(data)
        return len(data)


def for_paths(paths: Sequence[str], spark: SparkSession | None) -> Storage:
    """Hadoop storage when a session is given or a path names a file system
    (``scheme://``, other than ``file://``); else the local file system."""
    if spark is None and any(_has_scheme(p) for p in paths):
        from .._session import session

        spark = session()
    return LOCAL if spark is None else HadoopStorage(spark)


def _has_scheme(path: str) -> bool:
    head, sep, _ = path.partition("://")
    return bool(sep) and head.isalnum() and head.lower() != "file"
