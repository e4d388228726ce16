"""Delta Lake over Spark Connect: a table whose ``bloom.*`` properties make the server's writers
write filters, read with ``spark.bloomparquet.delta.enabled`` set by the client, differential
against Delta's own reader (the conf off, Parquet pushdown off). The scan's own metrics (Spark's
V1 scan: files read) come back with the execution."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bloomparquet as bp

pytestmark = pytest.mark.spark

ON = {"spark.bloomparquet.delta.enabled": "true"}
ORACLE = {"spark.bloomparquet.delta.enabled": "false", "spark.sql.parquet.filterPushdown": "false"}
FILES = 6


def with_confs(connect: Any, confs: dict[str, str], query: Any) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    for k, v in confs.items():
        connect.conf.set(k, v)
    df = query()
    got = sorted(map(tuple, df.collect()), key=repr)
    return got, bp.scan_metrics(df)


def same_rows(connect: Any, query: Any) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    expected, _ = with_confs(connect, ORACLE, query)
    try:
        got, metrics = with_confs(connect, ON, query)
    finally:
        connect.conf.unset("spark.sql.parquet.filterPushdown")
    assert got == expected
    return got, metrics


@pytest.fixture(scope="module")
def table(connect, tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("delta-connect") / "keys")
    connect.sql(
        f"CREATE TABLE delta.`{path}` (k BIGINT, email STRING, g INT) USING delta "
        "TBLPROPERTIES ('bloom.columns' = 'k, email', 'bloom.ndv.k' = '20000', 'bloom.ndv.email' = '20000')"
    )
    (
        connect.range(60_000)
        .selectExpr(
            "((id * 2654435761) % 4294967296) * 2 AS k",
            "concat('u', cast(id AS string), '@x.io') AS email",
            "cast(id % 10 AS int) AS g",
        )
        .repartition(FILES)
        .write.format("delta")
        .mode("append")
        .save(path)
    )
    return path


def load(connect: Any, path: str, where: str) -> Any:
    return connect.read.format("delta").load(path).where(where)


def test_filters_written_by_the_servers_writer(connect, table: str) -> None:
    files = sorted(Path(table).glob("*.parquet"))
    assert len(files) == FILES
    from bloomparquet.reference import read_bloom_filters

    assert all({c for _, c in read_bloom_filters(f)} == {"k", "email"} for f in files)


def test_point_miss_reads_no_file(connect, table: str) -> None:
    got, m = same_rows(connect, lambda: load(connect, table, "k = 3"))
    assert got == []
    assert m.get("number of files read", m.get("numFiles")) == 0, m


def test_point_hit_and_in_lists(connect, table: str) -> None:
    present = [r.k for r in load(connect, table, "g = 7").limit(3).collect()]
    got, m = same_rows(connect, lambda: load(connect, table, f"k = {present[0]}"))
    assert len(got) == 1
    assert m.get("number of files read", m.get("numFiles")) <= 2, m
    got, _ = same_rows(connect, lambda: load(connect, table, f"k IN ({', '.join(map(str, present))}, 1, 5)"))
    assert len(got) == 3
    got, _ = same_rows(connect, lambda: connect.sql(f"SELECT * FROM delta.`{table}` WHERE email = 'u7@x.io'"))
    assert len(got) == 1


def test_retrofit_over_connect_commits_one_rewrite(connect, tmp_path: Path) -> None:
    import bloomparquet as bp
    from bloomparquet.reference import read_bloom_filters

    path = str(tmp_path / "plain")
    connect.range(20_000).selectExpr("id * 2 AS k", "cast(id % 7 AS int) AS g").repartition(3).write.format(
        "delta"
    ).save(path)
    assert not any(read_bloom_filters(f) for f in Path(path).glob("*.parquet"))
    results = bp.retrofit(connect, path, "k", format="delta")
    assert [r["status"] for r in results] == ["retrofitted"] * 3, results
    assert {r["version"] for r in results} == {1}
    live = {Path(r["target"]).name for r in results}
    assert all({c for _, c in read_bloom_filters(Path(path) / name)} == {"k"} for name in live)
    history = connect.sql(f"DESCRIBE HISTORY delta.`{path}`").orderBy("version").collect()
    assert history[-1].operation == "OPTIMIZE" and history[-1].version == 1
    got, m = same_rows(connect, lambda: load(connect, path, "k = 7"))
    assert got == [] and m.get("number of files read", m.get("numFiles")) == 0, m
    with pytest.raises(Exception, match="format = 'hudi': expected one of parquet, delta, iceberg"):
        connect.sql(f"SELECT * FROM bloomparquet_retrofit('{path}', 'k', 0.01, false, 'hudi')").collect()
    # This server's Spark has no Iceberg release: an Iceberg retrofit says so.
    with pytest.raises(Exception, match="retrofit of an Iceberg table is refused: .* no Apache Iceberg support"):
        connect.sql(f"SELECT * FROM bloomparquet_retrofit('{path}', 'k', 0.01, false, 'iceberg')").collect()


def test_keys_computed_by_the_cluster_prune_over_connect(connect, table: str, tmp_path: Path) -> None:
    """A join with a table of keys and ``k IN (subquery)``: the keys are computed while the query runs,
    and the Delta scan lists only the files whose filters may hold one (its own count of files read)."""
    present = load(connect, table, "g = 4").limit(1).collect()[0].k
    keys = str(tmp_path / "keys")
    connect.createDataFrame([(present,), (3,)], "k BIGINT").write.parquet(keys)
    connect.read.parquet(keys).createOrReplaceTempView("connect_keys")
    queries = {
        "join": lambda: load(connect, table, "g >= 0").join(connect.read.parquet(keys), "k"),
        "in": lambda: connect.sql(f"SELECT * FROM delta.`{table}` WHERE k IN (SELECT k FROM connect_keys)"),
    }
    connect.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        for name, query in queries.items():
            got, m = same_rows(connect, query)
            assert [r[0] for r in got] == [present], name
            assert 1 <= m.get("number of files read", m.get("numFiles")) <= 2, (name, m)
    finally:
        connect.conf.unset("spark.sql.adaptive.enabled")
