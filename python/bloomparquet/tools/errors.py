"""The one error the tools raise for bad input (exit status 2), and the one place
that turns a failed read of a file into it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class BadInput(Exception):
    """A missing file, a file that is not Parquet, an unknown column or an
    unparsable value: the CLI prints ``bloomparquet: <message>`` and exits 2."""


def first_line(e: BaseException) -> str:
    """``e`` as one line: its message's first line, else its class name."""
    lines = str(e).strip().splitlines()
    return lines[0].strip() if lines else type(e).__name__


@contextmanager
def reading(path: str, what: str = "cannot read the file") -> Iterator[None]:
    """Raise what fails while reading ``path`` as :class:`BadInput` naming the file
    and the cause: pyarrow's errors (undecodable pages, footers it rejects), I/O
    errors, footers our compact-protocol decoder rejects, and metadata that makes
    no sense (a value error, a missing field: the class is named)."""
    import pyarrow as pa

    from ..reference._thrift import ThriftError

    try:
        yield
    except BadInput:
        raise
    except OSError as e:  # before ArrowException: pyarrow's IOError is both
        raise BadInput(f"{path}: {what} ({e.strerror or first_line(e)})") from None
    except (pa.ArrowException, ThriftError) as e:
        raise BadInput(f"{path}: {what} ({first_line(e)})") from None
    except (ValueError, ArithmeticError, IndexError, KeyError, TypeError) as e:
        # metadata pyarrow or we cannot make sense of: named, so a bug in the tools shows too
        raise BadInput(f"{path}: {what} ({type(e).__name__}: {first_line(e)})") from None
