"""Iceberg tables another writer made, read by Spark with ``spark.bloomparquet.iceberg.enabled``:
pyiceberg (pyarrow's writer: no bloom filters, dictionary-encoded chunks, which rule files out as
filters do) and Parquet files pyarrow
wrote with bloom filters but no field ids, added by pyiceberg's ``add_files`` (Iceberg reads them
through the table's name mapping; matched by id, they are never probed). Both in the JDBC catalog the
Spark session uses (one SQLite database), every query differential against Iceberg alone."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from .test_iceberg_reads import both

pytestmark = pytest.mark.spark

pyiceberg_sql = pytest.importorskip("pyiceberg.catalog.sql", reason="the iceberg extra (bin/setup installs it)")


@pytest.fixture(scope="module")
def catalog(spark):
    conf = "spark.sql.catalog.jlake"
    uri = spark.conf.get(f"{conf}.uri").removeprefix("jdbc:")
    warehouse = Path(spark.conf.get(f"{conf}.warehouse"))
    warehouse.mkdir(parents=True, exist_ok=True)
    # The catalog name is part of every row Iceberg's JDBC catalog stores: the same as Spark's.
    cat = pyiceberg_sql.SqlCatalog(
        "jlake", uri=f"sqlite:///{uri.removeprefix('sqlite:')}", warehouse=warehouse.as_uri()
    )
    cat.create_namespace_if_not_exists("py")
    return cat


def _keys(start: int, n: int) -> pa.Table:
    ks = list(range(start, start + 3 * n, 3))
    return pa.table({"k": pa.array(ks, pa.int64()), "s": pa.array([f"u{k}" for k in ks])})


def test_pyiceberg_appends_are_judged_by_their_dictionaries(spark, catalog) -> None:
    if catalog.table_exists("py.appended"):
        catalog.drop_table("py.appended")
    table = catalog.create_table("py.appended", schema=_keys(0, 1).schema)
    for i in range(4):
        table.append(_keys(i * 3000, 1000))
    for where, n in (("k = 3003", 1), ("k = 4", 0), ("s IN ('u6', 'u7')", 1), ("k IN (3, 9000, 9001)", 2)):
        got, ours, alone = both(spark, lambda w=where: spark.sql(f"SELECT * FROM jlake.py.appended WHERE {w}"))
        assert len(got) == n, where
        # A miss inside a file's min and max: its dictionary page rules the file out, no task.
        assert n > 0 or ours["tasks"] == 0 < alone["tasks"], (where, ours, alone)


def test_files_without_field_ids_are_never_probed(spark, catalog, tmp_path: Path) -> None:
    if catalog.table_exists("py.added"):
        catalog.drop_table("py.added")
    table = catalog.create_table("py.added", schema=_keys(0, 1).schema)
    paths = []
    for i in range(3):
        path = tmp_path / f"part-{i}.parquet"
        pq.write_table(_keys(i * 3000, 1000), path, bloom_filter_options={"k": {"ndv": 1000, "fpp": 0.01}})
        paths.append(path.as_uri())
    table.add_files(paths)
    for where, n in (("k = 3003", 1), ("k = 4", 0), ("k IN (3, 6003)", 2)):
        got, ours, alone = both(spark, lambda w=where: spark.sql(f"SELECT * FROM jlake.py.added WHERE {w}"))
        assert len(got) == n and ours["tasks"] == alone["tasks"], (where, ours, alone)
