"""Every example in the README, the user guide's pages and the API reference runs, against a small lake
(`/lake/...` in the docs is a temporary directory here), so the docs cannot rot.

Python blocks run in order, one namespace per document (``python-delta`` blocks need Delta
Lake: tests/delta/test_docs_delta.py runs them); SQL blocks run
statement by statement; command lines (``$ bloomparquet ...``, ``bloomparquet
...``, ``python -m bloomparquet ...``) run through the CLI and must exit 0,
except synopses with placeholders (``PATH``, ``N``). Benchmark commands take
minutes to hours: for those the scripts they name must exist.
"""

from __future__ import annotations

import base64
import re
import shlex
from pathlib import Path

import pytest

from bloomparquet.cli import main

pytestmark = pytest.mark.spark

ROOT = Path(__file__).resolve().parents[1]
# Each document and how many examples it holds at least (a parser that finds none must fail).
RUN = {
    "README.md": 3,
    "docs/api.md": 12,
    "docs/getting-started.md": 1,
    "docs/reading.md": 1,
    "docs/joins.md": 1,
    "docs/sql.md": 1,
    "docs/writing.md": 1,
    "docs/encryption.md": 1,
    "docs/cli.md": 1,
    "docs/digest.md": 3,
    "docs/troubleshooting.md": 1,
}
BLOCK = re.compile(r"^```([\w-]*)\n(.*?)^```", re.S | re.M)
COMMAND = re.compile(r"^(?:\$ )?(?:python -m )?bloomparquet (.*)$")
PLACEHOLDER = re.compile(r"\b(?:[A-Z]{2,}|N|P)\b")
TABLES = ("events", "events2")


def _blocks(doc: str) -> list[tuple[str, str, int]]:
    text = (ROOT / doc).read_text()
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in BLOCK.finditer(text)]


def _commands(code: str) -> list[list[str]]:
    """The runnable command lines of a block, as CLI arguments."""
    out = []
    for line in code.splitlines():
        m = COMMAND.match(line.strip())
        if not m or PLACEHOLDER.search(m.group(1).split("#")[0]):
            continue
        args = re.sub(r"\[[^\]]*\]", "", m.group(1).split("#")[0].split("|")[0])
        out.append(shlex.split(args))
    return out


def _events(spark):
    return spark.range(0, 40_000, numPartitions=2).selectExpr(
        "id AS event_id",
        "id % 5000 AS order_id",
        "concat('u-', (id * 7919) % 100003) AS user_id",
        "concat('u', id % 9973, '@ex.com') AS email",
        "id % 100 AS customer_id",
        "cast(id % 997 AS double) AS amount",
    )


@pytest.fixture(scope="module")
def lake(spark, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("docs") / "lake"
    events = _events(spark)
    (
        events.write.format("bloomparquet")
        .option("bloom.columns", "user_id,order_id")
        .option("parquet.block.size", 256 * 1024)
        .save(str(root / "events"))
    )
    events.select("customer_id", "amount").write.parquet(str(root / "orders"))
    spark.range(100).selectExpr("id AS customer_id", "if(id % 10 = 0, 'vip', 'std') AS tier").write.parquet(
        str(root / "customers")
    )
    return root


@pytest.fixture
def namespace(spark, lake: Path):
    from pyspark.sql import SparkSession

    # The docs write `staging_events` over /lake/events: it must not read from there.
    _events(spark).createOrReplaceTempView("staging_events")
    hadoop = spark._jsc.hadoopConfiguration()  # type: ignore[attr-defined]
    hadoop.set("parquet.encryption.key.list", MASTER_KEYS)
    spark.read.parquet(str(lake / "customers")).createOrReplaceTempView("customers")
    yield {"spark": spark, "SparkSession": SparkSession}
    for t in TABLES:
        spark.sql(f"DROP TABLE IF EXISTS {t}")
    hadoop.unset("parquet.encryption.key.list")


# What the docs name that only a user's deployment has, and what stands in for it here: the docs'
# KMS client is the test jar's in-memory KMS, holding the master keys the examples name.
STAND_INS = {"com.example.kms.VaultKmsClient": "io.bloomparquet.testing.InMemoryKms"}
MASTER_KEYS = (
    "kf: " + base64.b64encode(b"0123456789abcdef").decode() + ", ku: " + base64.b64encode(b"fedcba9876543210").decode()
)


def _in_lake(code: str, lake: Path) -> str:
    for name, stand_in in STAND_INS.items():
        code = code.replace(name, stand_in)
    return code.replace("/lake/", f"{lake}/")


@pytest.mark.parametrize("doc", sorted(RUN))
def test_examples_run(doc: str, spark, lake: Path, namespace: dict) -> None:
    ran = 0
    for lang, code, line in _blocks(doc):
        where = f"{doc}:{line}"
        code = _in_lake(code, lake)
        if lang == "python":
            exec(compile(code, where, "exec"), namespace)  # noqa: S102 - the docs' own examples
            ran += 1
        elif lang == "sql":
            for t in TABLES:
                spark.sql(f"DROP TABLE IF EXISTS {t}")
            for statement in filter(str.strip, code.split(";")):
                spark.sql(statement).collect()
            ran += 1
        for args in _commands(code):
            assert main(args) == 0, f"{where}: bloomparquet {shlex.join(args)}"
            ran += 1
    assert ran >= RUN[doc], f"{doc}: only {ran} examples found"


def test_benchmark_commands_name_scripts_that_exist() -> None:
    named = set()
    for lang, code, line in _blocks("docs/benchmarks.md"):
        if lang == "bash":
            named |= {(m, line) for m in re.findall(r"\b(bench/[\w./-]+\.(?:py|sh))", code)}
    assert named, "no benchmark commands found"
    missing = [f"docs/benchmarks.md:{line}: {script}" for script, line in named if not (ROOT / script).is_file()]
    assert not missing, missing
