"""The option registry of the JVM (``_options.json``, rendered from
``OptionRegistry.scala`` by ``bin/gen-options``), and the JVM's checks of it,
so a bad option fails in Python with the same message before Spark runs."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

_OPTIONS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "_options.json").read_text(encoding="utf-8"))[
    "options"
]
_COLUMN = "<column>"
_NAMESPACE = "bloom."
#: Read and write options: a table's OPTIONS clause holds both.
TABLE_SCOPES = ("read", "write")

_INT = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _accepts(kind: Mapping[str, Any], text: str) -> bool:
    """Whether ``text`` (trimmed) is a value of ``kind``: OptionKind.parse's rules."""
    t = kind["type"]
    if t == "bool":
        return text.lower() in ("true", "false")
    if t == "int":
        digits = text.replace("_", "")
        return _INT.fullmatch(digits) is not None and kind["min"] <= int(digits) <= kind["max"]
    if t == "probability":
        return _DECIMAL.fullmatch(text) is not None and 0.0 < float(text) < 1.0
    if t == "enum":
        return text.lower() in (v.lower() for v in kind["values"])
    if t == "columns":
        return True
    raise ValueError(f"bloomparquet: option type {t!r} in _options.json is not known here")


def _text(value: object) -> str:
    """A Python value as the option text the JVM reads."""
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, float) else str(value)


def column_names(columns: Sequence[str] | str | None) -> list[str]:
    """Column names from a list or one comma-separated string, trimmed, empty ones dropped
    (``bloom.columns``' form; the CLI's ``--columns`` too)."""
    if columns is None:
        return []
    return [c.strip() for c in (columns.split(",") if isinstance(columns, str) else columns) if c.strip()]


def _fail(message: str) -> ValueError:
    return ValueError(f"bloomparquet: {message}")


def _names(option: Mapping[str, Any], key: str) -> bool:
    canonical: str = option["key"].lower()
    if canonical.endswith(_COLUMN):
        prefix = canonical[: -len(_COLUMN)]
        return key.startswith(prefix) and len(key) > len(prefix)
    return key == canonical


def _distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(cur[j - 1] + 1, prev[j] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _unknown(key: str, scopes: Iterable[str]) -> ValueError:
    known = [o for o in _OPTIONS if set(o["scopes"]) & set(scopes)]

    def distance(o: Mapping[str, Any]) -> int:
        forms = [o["key"]] + ([o["key"][: -len(_COLUMN)].rstrip(".")] if o["key"].endswith(_COLUMN) else [])
        return min(_distance(key, f.lower()) for f in forms)

    closest = min(known, key=distance)
    listed = ", ".join(o["key"] for o in known)
    return _fail(f"unknown option '{key}'; did you mean '{closest['key']}'? Known options: {listed}")


def check(key: str, value: object, scopes: Iterable[str] = TABLE_SCOPES) -> str:
    """The text of option ``key`` = ``value``, checked as the JVM checks it
    (``ValueError`` naming the option and what it accepts, or the closest key);
    a deprecated key warns (``DeprecationWarning``) naming its replacement."""
    scopes = tuple(scopes)
    text, lower = _text(value), key.lower()
    option = next((o for o in _OPTIONS if _names(o, lower)), None)
    if option is not None:
        if not set(option["scopes"]) & set(scopes):
            raise _fail(f"option '{lower}' is a {'/'.join(option['scopes'])} option, not a {'/'.join(scopes)} option")
        if not _accepts(option["kind"], text.strip()):
            shown = lower if option["key"].endswith(_COLUMN) else option["key"]
            raise _fail(f"option '{shown}' = '{text}': expected {option['allowed']}")
        return text
    for o in _OPTIONS:
        for old in o["deprecatedKeys"]:
            if old["key"].lower() == lower:
                if not _accepts(old["kind"], text.strip()):
                    raise _fail(f"option '{old['key']}' = '{text}': expected {old['allowed']}")
                warnings.warn(
                    f"bloomparquet: option '{old['key']}' is deprecated, use '{o['key']}': {old['note']}",
                    DeprecationWarning,
                    stacklevel=3,
                )
                return text
    raise _unknown(lower, scopes)


def checked(options: Mapping[str, object], scopes: Iterable[str] = TABLE_SCOPES) -> dict[str, str]:
    """``options`` as Spark option strings, every ``bloom.*`` one checked with :func:`check`."""
    scopes = tuple(scopes)
    return {k: check(k, v, scopes) if k.lower().startswith(_NAMESPACE) else _text(v) for k, v in options.items()}
