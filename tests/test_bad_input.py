"""Bad input in a table directory behaves exactly as with Spark's ``parquet``:
zero-byte files, files that are not Parquet, a truncated footer, ``_SUCCESS``
and hidden files (``.x``, ``_x``); with ``spark.sql.files.ignoreCorruptFiles``
off (the same error class) and on (the same rows), on every route. A file whose
footer can't be read is kept whole for Spark's reader to judge, and counted in
``bloomUnreadableFiles``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import bloomparquet as bp

from .result_table import publish
from .spark_conf import PUSHDOWN_OFF, spark_conf

pytestmark = pytest.mark.spark

KEY = 2 * 123
TABLE: dict[tuple[str, str], dict[str, str]] = {}


@pytest.fixture(scope="module")
def good(spark, tmp_path_factory) -> Path:
    """One directory of two files by our writer, with a filter on ``k`` (even keys)."""
    out = tmp_path_factory.mktemp("bad-input") / "good"
    (
        spark.range(0, 20_000)
        .selectExpr("id * 2 AS k", "CAST(id AS STRING) AS s")
        .repartition(2)
        .write.format("bloomparquet")
        .option("bloom.columns", "k")
        .save(str(out))
    )
    return out


def _truncated_footer(d: Path, good_file: Path) -> None:
    data = good_file.read_bytes()
    (d / "part-truncated.parquet").write_bytes(data[: len(data) - 40])  # footer cut, magic gone


def _footer_length_lies(d: Path, good_file: Path) -> None:
    data = good_file.read_bytes()
    (d / "part-lying.parquet").write_bytes(data[:-8] + (len(data) * 4).to_bytes(4, "little") + b"PAR1")


# case -> (what to add to the directory, bloomUnreadableFiles expected when the query runs)
CASES: dict[str, tuple[Callable[[Path, Path], None], int]] = {
    "zero-byte file": (lambda d, g: (d / "part-empty.parquet").write_bytes(b""), 0),
    "not Parquet": (lambda d, g: (d / "part-notes.parquet").write_text("hello, not parquet\n" * 10), 1),
    "truncated footer": (_truncated_footer, 1),
    "footer length past the file": (_footer_length_lies, 1),
    "_SUCCESS": (lambda d, g: (d / "_SUCCESS").write_bytes(b""), 0),
    "hidden .x": (lambda d, g: (d / ".x").write_text("not parquet"), 0),
    "hidden _x": (lambda d, g: (d / "_x").write_text("not parquet"), 0),
}


def _signature(e: Exception) -> str:
    """The error's kind: its Python class and the first Spark error class it names."""
    m = re.search(r"\[([A-Z_]+(?:\.[A-Z_]+)*)\]", str(e))
    return f"{type(e).__name__}[{m.group(1) if m else '-'}]"


def _outcome(run: Callable[[], list]) -> tuple[str, object]:
    try:
        return "rows", sorted(run())
    except Exception as e:  # noqa: BLE001 - the error kind is what is compared
        return "error", _signature(e)


def _routes(spark, d: str) -> dict:
    return {
        "plan": lambda: bp.read_bloom(spark, d),
        "task": lambda: bp.read_bloom(spark, d, **{"bloom.mode": "task"}),
        "sql": lambda: spark.sql(f"SELECT * FROM bloomparquet.`{d}`"),
    }


@pytest.mark.parametrize("ignore", ["false", "true"])
@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_like_spark_parquet(spark, good: Path, tmp_path: Path, case: str, ignore: str) -> None:
    add, unreadable = CASES[case]
    d = tmp_path / "t"
    shutil.copytree(good, d)
    add(d, sorted(good.glob("*.parquet"))[0])
    where = f"k = {KEY}"
    with spark_conf(spark, {"spark.sql.files.ignoreCorruptFiles": ignore}):
        with spark_conf(spark, PUSHDOWN_OFF):
            expected = _outcome(lambda: spark.read.parquet(str(d)).where(where).collect())
        row, failures = TABLE.setdefault((case, ignore), {"parquet": _show(expected)}), []
        for route, make in _routes(spark, str(d)).items():
            q: list = []
            got = _outcome(lambda: (q.append(make().where(where)), q[0].collect())[1])  # noqa: B023
            counted = bp.scan_metrics(q[0]).get("bloomUnreadableFiles") if got[0] == "rows" and q else None
            row[route] = _show(got) + ("" if counted is None else f", unreadable {counted}")
            if got != expected:
                failures.append(f"{route}: {got} != {expected}")
            elif counted is not None and counted != unreadable:
                failures.append(f"{route}: bloomUnreadableFiles {counted} != {unreadable}")
    assert not failures, failures


def _show(outcome: tuple[str, object]) -> str:
    kind, value = outcome
    return f"{len(value)} row(s)" if kind == "rows" else str(value)  # type: ignore[arg-type]


@pytest.fixture(scope="module", autouse=True)
def _print_table() -> None:
    yield
    routes = ("parquet", "plan", "task", "sql")
    publish(
        "bad-input",
        ["input", "ignoreCorruptFiles", *routes],
        [[c, i, *(r.get(x, "") for x in routes)] for (c, i), r in TABLE.items()],
    )
