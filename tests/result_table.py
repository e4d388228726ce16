"""Test helper: a result table (kind × route) for the closing note, printed
(visible with ``pytest -s``) and written to ``target/<name>.md``."""

from __future__ import annotations

from pathlib import Path


def publish(name: str, header: list[str], rows: list[list[object]]) -> None:
    if not rows:
        return
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    table = "\n".join(lines)
    out = Path(__file__).resolve().parents[1] / "target" / f"{name}.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(table + "\n")
    print("\n" + table)
