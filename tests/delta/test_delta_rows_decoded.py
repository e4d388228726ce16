"""Never more work than Delta alone: with ``spark.bloomparquet.delta.enabled=true`` every query
decodes at most the rows Delta's own reader decodes at its defaults (its scan's ``numOutputRows``),
and returns Delta's rows with Parquet pushdown off. Tables written by delta-rs (Rust's Parquet
writer: dictionary-encoded strings, page indexes, no bloom filters: the common case when a team
first switches the conf on over an existing lake) and by Spark with parquet-java's filters."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from ..decoded import absent_like, decoded, key_rows, uuid_keys
from ..spark_conf import rows, spark_conf
from .tables import ON, ORACLE

pytestmark = pytest.mark.spark

COMMITS, ROWS_PER_COMMIT, ROWS_PER_GROUP = 4, 12_000, 3_000
ROWS = COMMITS * ROWS_PER_COMMIT
KEYS = uuid_keys(ROWS, seed=11)
HIT = KEYS[9_876]
MISS = absent_like(KEYS, 1)
ABSENT_KEY = 2 * ROWS + 1

QUERIES = [
    f"ks = '{HIT}'",
    f"ks = '{MISS}'",
    f"k = {ABSENT_KEY} OR ks = '{HIT}'",
    "ks IN ({})".format(", ".join(f"'{k}'" for k in [HIT, MISS, *KEYS[30_000:30_005]])),
    f"k = {ABSENT_KEY}",
    "cat = 'b'",
    "f = 4321.25",
    "seq BETWEEN 25000 AND 25100",
]


def _commit(i: int) -> pa.Table:
    return key_rows(range(i * ROWS_PER_COMMIT, (i + 1) * ROWS_PER_COMMIT), KEYS)


@pytest.fixture(scope="module")
def tables(spark, tmp_path_factory) -> dict[str, Path]:
    from deltalake import WriterProperties, write_deltalake

    base = tmp_path_factory.mktemp("delta-decoded")
    rs = base / "delta_rs"
    properties = WriterProperties(max_row_group_size=ROWS_PER_GROUP, data_page_row_count_limit=500)
    for i in range(COMMITS):
        write_deltalake(str(rs), _commit(i), mode="append", writer_properties=properties)
    written = base / "spark_filters"
    confs = {
        "parquet.bloom.filter.enabled#ks": "true",
        "parquet.bloom.filter.expected.ndv#ks": str(ROWS_PER_COMMIT),
        "parquet.block.size": str(160 * 1024),
        "parquet.page.row.count.limit": "500",
    }
    with spark_conf(spark, confs):
        frame = spark.read.format("delta").load(str(rs)).repartition(COMMITS).sortWithinPartitions("seq")
        frame.write.format("delta").save(str(written))
    return {"delta_rs": rs, "spark_filters": written}


@pytest.mark.parametrize("table", ["delta_rs", "spark_filters"])
@pytest.mark.parametrize("route", ["dataframe", "sql"])
def test_never_decodes_more_than_delta_alone(spark, tables: dict[str, Path], table: str, route: str) -> None:
    path = tables[table]

    def query(where: str):
        base = (
            spark.read.format("delta").load(str(path))
            if route == "dataframe"
            else spark.sql(f"SELECT * FROM delta.`{path}`")
        )
        return base.where(where)

    more = {}
    for where in QUERIES:
        with spark_conf(spark, ORACLE):
            want = rows(query(where))
        with spark_conf(spark, {"spark.bloomparquet.delta.enabled": "false"}):
            got, delta_alone = decoded(query(where))
        assert got == want, where
        with spark_conf(spark, ON):
            got, ours = decoded(query(where))
        assert got == want, where
        if ours > delta_alone:
            more[where] = (ours, delta_alone)
    assert not more, f"{table} ({route}): query -> (rows decoded, Delta alone's): {more}"


def test_a_dictionary_miss_reads_nothing_on_a_table_without_filters(spark, tables: dict[str, Path]) -> None:
    with spark_conf(spark, ON):
        got, ours = decoded(spark.read.format("delta").load(str(tables["delta_rs"])).where(f"ks = '{MISS}'"))
    assert (got, ours) == ([], 0)
