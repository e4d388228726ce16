"""docs/api.md is the public API's docstrings as they are now (``bin/gen-api`` renders it),
and every public function's numpy-style docstring documents its parameters and what it returns."""

from __future__ import annotations

import inspect

from .api_doc import PAGE, methods, public, render, sections


def test_page_is_current() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(), "docs/api.md is stale: run bin/gen-api"


def _functions() -> list[tuple[str, object]]:
    out = []
    for name, obj in public():
        if inspect.isfunction(obj):
            out.append((name, obj))
        elif isinstance(obj, type) and not issubclass(obj, Exception):
            out.append((name, obj))  # its constructor's parameters, in the class docstring
            for mname, member in methods(obj):
                if not isinstance(member, property):
                    fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                    out.append((f"{name}.{mname}", fn))
    return out


def _documented(entries: list[str]) -> set[str]:
    """Parameter names of a Parameters section (``*args``/``**kwargs`` keep their stars)."""
    return {line.split(" : ")[0].strip() for line in entries if line.strip() and not line.startswith(" ")}


def test_public_functions_have_numpy_docstrings() -> None:
    problems = []
    for name, fn in _functions():
        doc = fn.__doc__
        if not doc:
            problems.append(f"{name}: no docstring")
            continue
        sig = inspect.signature(fn)
        params = {
            ("**" if p.kind is p.VAR_KEYWORD else "*" if p.kind is p.VAR_POSITIONAL else "") + p.name
            for p in sig.parameters.values()
            if p.name not in ("self", "cls")
        }
        found = sections(doc)
        if params and _documented(found.get("Parameters", [])) != params:
            problems.append(f"{name}: Parameters documents {_documented(found.get('Parameters', []))}, not {params}")
        returns = sig.return_annotation
        if not isinstance(fn, type) and returns not in ("None", None, sig.empty) and "Returns" not in found:
            problems.append(f"{name}: no Returns section")
    assert not problems, "\n".join(problems)
    assert len(_functions()) >= 15  # the walk found the API
