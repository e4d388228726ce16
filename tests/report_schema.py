"""Test helper: the CLI's JSON reports against the schema the package ships (report.schema.json)."""

from __future__ import annotations

import importlib.resources
import json

import jsonschema


def report_schema() -> dict:
    """python/bloomparquet/report.schema.json, as the package ships it, checked to be a JSON Schema."""
    schema = json.loads(importlib.resources.files("bloomparquet").joinpath("report.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def assert_conforms(report: dict, schema: dict, argv: tuple[str, ...]) -> None:
    """``report`` is valid under its command's own schema (errors that name the field) and the whole one."""
    title = report["command"] + (" --dry-run" if report.get("dry_run") else "")
    (one,) = [s for s in schema["oneOf"] if s["title"] == title]
    errors = sorted(jsonschema.Draft202012Validator(one).iter_errors(report), key=str)
    assert not errors, (argv, [f"{list(e.absolute_path)}: {e.message}" for e in errors][:5])
    jsonschema.validate(report, schema)
