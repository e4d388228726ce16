"""Test helper: what a failed Spark call raised, as the JVM saw it."""

from __future__ import annotations


def root_cause(error: BaseException) -> str:
    """The JVM's innermost cause (class and message), or the Python error's first line."""
    java = getattr(error, "java_exception", None) or getattr(error, "_origin", None)
    if java is None:
        return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    while java.getCause() is not None:
        java = java.getCause()
    return java.toString()
