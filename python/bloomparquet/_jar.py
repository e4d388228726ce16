"""Where the bloomparquet jar is."""

from __future__ import annotations

import os
from pathlib import Path

JAR_ENV = "BLOOMPARQUET_JAR"
_PACKAGED = Path(__file__).parent / "jars" / "bloomparquet.jar"
_DEV_BUILD = Path(__file__).resolve().parents[2] / "jvm" / "target" / "bloomparquet.jar"


def jar_path() -> Path:
    """The bloomparquet jar: ``$BLOOMPARQUET_JAR``, else the jar shipped in the
    package, else the development build (``jvm/target/bloomparquet.jar``).

    Raises ``FileNotFoundError`` naming every place looked at when none exists.
    """
    candidates = [Path(p) for p in [os.environ.get(JAR_ENV)] if p] + [_PACKAGED, _DEV_BUILD]
    for c in candidates:
        if c.is_file():
            return c
    looked = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"bloomparquet jar not found (looked at {looked}); run bin/setup or set ${JAR_ENV}")
