"""``python -m bloomparquet`` in a forked process (tests/test_cli_never_crashes.py): a module of its
own, importing nothing a forked run would not, so a fork from a server that preloaded the tools
starts in milliseconds."""

from __future__ import annotations

import os
import runpy
import sys


def run(argv: tuple[str, ...], out: str, err: str, status: str) -> None:
    """The tools' entry point with ``argv``, stdout and stderr (file descriptors, so a native
    library's messages too) going to ``out`` and ``err``, and the exit status it asks for to
    ``status`` (the forkserver's own report of it can be lost under load: it then says 255). An
    uncaught exception prints its traceback and exits 1 (``status`` left empty); a native abort
    kills the process."""
    for fd, name in ((1, out), (2, err)):
        os.dup2(os.open(name, os.O_WRONLY | os.O_TRUNC), fd)
    sys.stdout, sys.stderr = open(1, "w", closefd=False), open(2, "w", closefd=False)  # noqa: SIM115
    sys.argv = ["bloomparquet", *argv]
    try:
        runpy.run_module("bloomparquet", run_name="__main__", alter_sys=True)
    except SystemExit as e:
        code = 0 if e.code is None else e.code if isinstance(e.code, int) else 1
        with open(status, "w") as f:
            f.write(str(code))
        raise
