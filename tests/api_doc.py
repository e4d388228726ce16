"""The Python API reference, docs/api.md, rendered from the public API's numpy-style docstrings.

``bin/gen-api`` writes it; tests/test_api_doc.py checks that it is current and that every
public function documents its parameters and what it returns; tests/test_docs_examples.py
runs its examples. The public API is ``__all__`` of ``bloomparquet`` and ``bloomparquet.reference``.
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import bloomparquet
from bloomparquet import cli, reference

PAGE = Path(__file__).resolve().parents[1] / "docs" / "api.md"
MODULES: list[types.ModuleType] = [bloomparquet, reference]
# Sections whose entries are "name : type" (or a type alone) lines, each with an indented description.
ENTRY_SECTIONS = ("Parameters", "Returns", "Raises")
# Signatures are not code to run: tests/test_docs_examples.py runs the `python` blocks, the examples.
SIGNATURE = "```text"
# The examples run in one namespace, in order, after this block.
PRELUDE = """import numpy as np
from pyspark.sql import SparkSession

import bloomparquet as bp
from bloomparquet.reference import SplitBlockBloomFilter, optimal_num_bytes, read_bloom_filters, xxh64_plain"""


def public() -> Iterator[tuple[str, Any]]:
    """(qualified name, object) of every public function, class and constant, then the CLI's ``main``."""
    for module in MODULES:
        for name in module.__all__:
            yield f"{module.__name__}.{name}", getattr(module, name)
    yield "bloomparquet.cli.main", cli.main


def methods(cls: type) -> Iterator[tuple[str, Any]]:
    """A class's public methods and properties, in source order."""
    for name, member in vars(cls).items():
        if not name.startswith("_"):
            yield name, member


def _annotation(a: object) -> str:
    return a if isinstance(a, str) else inspect.formatannotation(a)


def signature(name: str, fn: Callable[..., Any], skip_first: bool = False) -> str:
    """``name(params) -> returns`` with annotations as written in the source."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())[1 if skip_first else 0 :]
    parts, star_done = [], False
    for p in params:
        text = p.name
        if p.kind is p.VAR_POSITIONAL:
            text, star_done = f"*{p.name}", True
        elif p.kind is p.VAR_KEYWORD:
            text = f"**{p.name}"
        elif p.kind is p.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        if p.annotation is not p.empty:
            text += f": {_annotation(p.annotation)}"
        if p.default is not p.empty:
            text += f" = {p.default!r}" if p.annotation is not p.empty else f"={p.default!r}"
        parts.append(text)
    returns = "" if sig.return_annotation is sig.empty else f" -> {_annotation(sig.return_annotation)}"
    return f"{name}({', '.join(parts)}){returns}"


def sections(doc: str) -> dict[str, list[str]]:
    """A cleaned docstring's sections: ``""`` for the text before the first heading."""
    lines = inspect.cleandoc(doc).splitlines()
    out: dict[str, list[str]] = {"": []}
    current, i = "", 0
    while i < len(lines):
        if i + 1 < len(lines) and lines[i].strip() and re.fullmatch(r"-{3,}", lines[i + 1]):
            current = lines[i].strip()
            out[current] = []
            i += 2
            continue
        out[current].append(lines[i])
        i += 1
    return out


def _inline(text: str) -> str:
    """reST inline markup as Markdown: ``x`` and :func:`x` become `x`."""
    text = re.sub(r":(?:func|meth|class|attr|mod):`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def _entries(lines: list[str]) -> list[str]:
    """ "name : type" lines with indented descriptions, as a Markdown list."""
    items: list[list[str]] = []
    for line in lines:
        if not line.strip():
            continue
        if not line.startswith(" "):
            items.append([line.strip(), ""])
        else:
            items[-1][1] += (" " if items[-1][1] else "") + line.strip()
    out = []
    for head, desc in items:
        name, _, kind = head.partition(" : ")
        label = f"`{name}` ({kind})" if kind else f"`{name}`"
        out.append(f"- {label}: {_inline(desc)}" if desc else f"- {label}")
    return out


# Examples that need a session with Iceberg's runtime: fenced `python-iceberg`, which the default Spark's docs
# test skips and the Iceberg suite runs (tests/iceberg/test_docs_iceberg.py).
NEEDS_ICEBERG = ("iceberg_filter_properties",)


def _examples(lines: list[str]) -> list[str]:
    code = [line[4:] for line in lines if line.startswith((">>> ", "... "))]
    fence = "python-iceberg" if any(name in line for line in code for name in NEEDS_ICEBERG) else "python"
    return [f"```{fence}", *code, "```"] if code else []


def render_doc(doc: str | None) -> list[str]:
    if not doc:
        return []
    out: list[str] = []
    for title, lines in sections(doc).items():
        while lines and not lines[-1].strip():
            lines = lines[:-1]
        if title:
            out += ["", f"**{title}**", ""]
        if title in ENTRY_SECTIONS:
            out += _entries(lines)
        elif title == "Examples":
            out += _examples(lines)
        else:
            out += [_inline(line) for line in lines]
    while out and not out[-1].strip():
        out.pop()
    return out


def _entry(name: str, obj: Any) -> list[str]:
    short = name.rsplit(".", 1)[1]
    if isinstance(obj, type):
        if issubclass(obj, Exception):
            head = f"{short}({', '.join(b.__name__ for b in obj.__bases__)})"
        else:
            head = signature(short, obj).removesuffix(" -> None")
        out = [f"### `{name}`", "", SIGNATURE, f"class {head}", "```", ""]
        out += render_doc(obj.__doc__)
        for mname, member in methods(obj):
            if isinstance(member, property):
                out += ["", f"#### `{short}.{mname}` (property)", "", *render_doc(member.__doc__)]
            else:
                fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                skip = not isinstance(member, staticmethod)
                out += ["", f"#### `{short}.{mname}`", "", SIGNATURE, signature(mname, fn, skip), "```", ""]
                out += render_doc(fn.__doc__)
        return out
    if inspect.isfunction(obj):
        return [f"### `{name}`", "", SIGNATURE, signature(short, obj), "```", "", *render_doc(obj.__doc__)]
    return [f"### `{name}`", "", f"`{obj!r}`"]


def render() -> str:
    """The whole page."""
    out = [
        "# Python API reference",
        "",
        "<!-- Generated by bin/gen-api from the docstrings (tests/api_doc.py); do not edit. -->",
        "",
        "The public API: `bloomparquet` (reading, writing, sessions), `bloomparquet.reference`",
        "(the numpy SBBF and xxHash64 that cross-verify the JVM) and the command line's `main`.",
        "The examples run, in order, after these imports (tests/test_docs_examples.py):",
        "",
        "```python",
        PRELUDE,
        "```",
    ]
    for name, obj in public():
        out += ["", *_entry(name, obj)]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    PAGE.write_text(render(), encoding="utf-8")
    print(f"wrote {PAGE}")
