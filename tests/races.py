"""Work started at once on threads of one session, for tests of commits racing each other."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def at_once(**work: Callable[[], Any]) -> dict[str, str | None]:
    """Runs each of ``work`` on its own thread, all started together: each one's error (as text), None if it succeeded."""
    errors: dict[str, str | None] = {}

    def run(name: str, job: Callable[[], Any]) -> None:
        try:
            job()
            errors[name] = None
        except Exception as e:  # noqa: BLE001 (the caller checks which errors are a conflict)
            errors[name] = str(e)

    threads = [threading.Thread(target=run, args=item) for item in work.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors
