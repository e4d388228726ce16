"""The command-line tools behind ``bloomparquet inspect|probe|verify|advise``.

Everything here reads local files with pyarrow (footers, statistics, values)
and the numpy reference (``bloomparquet.reference``) for filters and hashes: no
JVM is started. Each command's ``run`` returns a JSON-ready report (the
``--json`` schema, documented in docs/cli.md).
"""

from .errors import BadInput

__all__ = ["BadInput"]
