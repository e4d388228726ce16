"""Write options: validated before any data is written, case-insensitive keys,
per-column FPP and NDV, the Python helper, CREATE TABLE ... AS SELECT, and the
false-positive rate of filters sized without an NDV."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import bloomparquet
from bloomparquet.reference import optimal_num_bytes, read_bloom_filters, xxh64_plain

from .spark_conf import spark_conf
from .write_format import WRITE_FORMAT, filter_bytes

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def df(spark):
    return spark.sql(
        "SELECT id, concat('u', id) AS email, id % 2 = 0 AS flag, array(id) AS arr, "
        "named_struct('x', id) AS s, timestamp_micros(id) AS ts FROM range(2000)"
    )


def _filters(out: Path) -> dict:
    files = sorted(out.glob("*.parquet"))
    assert files
    found = {}
    for f in files:
        found.update({(f.name, rg, col): flt for (rg, col), flt in read_bloom_filters(f).items()})
    return found


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bloom.columns": "id,nope"}, "unknown column 'nope'"),
        ({"bloom.columns": "id", "bloom.fpp": "0"}, "'bloom.fpp' = '0'"),
        ({"bloom.columns": "id", "bloom.fpp": "1"}, "strictly between 0 and 1"),
        ({"bloom.columns": "id", "bloom.fpp": "abc"}, "'bloom.fpp' = 'abc'"),
        ({"bloom.columns": "id", "bloom.fpp.id": "-0.5"}, "'bloom.fpp.id' = '-0.5'"),
        ({"bloom.columns": "id", "bloom.ndv.id": "0"}, "'bloom.ndv.id' = '0'"),
        ({"bloom.columns": "id", "bloom.ndv.id": "many"}, "expected an integer >= 1"),
        ({"bloom.columns": "flag"}, "booleans"),
        ({"bloom.columns": "arr"}, "arrays and maps"),
        ({"bloom.columns": "s"}, "name its fields"),
        ({"bloom.columns": "ts"}, "INT96"),
        ({"bloom.columns": "id", "bloom.fp": "0.1"}, "unknown option 'bloom.fp'; did you mean 'bloom.fpp'?"),
        ({"bloom.columns": "id", "bloom.fpp.email": "0.1"}, "not in bloom.columns"),
        ({"bloom.columns": "id", "bloom.sizing": "guess"}, "exact, fold"),
    ],
)
def test_bad_options_fail_before_writing(spark, df, tmp_path, options, message) -> None:
    out = tmp_path / "t"
    with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "INT96"}), pytest.raises(Exception) as info:  # noqa: PT011 - the message is checked
        df.write.format(WRITE_FORMAT).options(**options).save(str(out))
    assert message in str(info.value), str(info.value)[:500]
    assert not list(out.glob("**/*.parquet")), "data was written despite invalid options"


def test_keys_case_insensitive_and_per_column_fpp_and_ndv(spark, df, tmp_path) -> None:
    out = tmp_path / "t"
    (
        df.coalesce(1)
        .write.format(WRITE_FORMAT)
        .option("BLOOM.COLUMNS", "ID, Email, s.X")
        .option("Bloom.Fpp.email", "0.05")
        .option("bloom.NDV.s.x", "100000")
        .save(str(out))
    )
    filters = _filters(out)
    sizes = {col: f.num_bytes for (_, _, col), f in filters.items()}
    assert sizes == {
        "id": filter_bytes(spark, 2000, 0.01),
        "email": filter_bytes(spark, 2000, 0.05),
        "s.x": filter_bytes(spark, 100000, 0.01),
    }


def test_write_bloom_helper_and_mode(spark, df, tmp_path) -> None:
    out = str(tmp_path / "t")
    bloomparquet.write_bloom(df.coalesce(1), out, columns=["id"], fpp={"id": 0.001})
    with pytest.raises(Exception, match="already exists"):
        bloomparquet.write_bloom(df, out, columns="id")
    bloomparquet.write_bloom(df.coalesce(1), out, columns="email", ndv=777, mode="overwrite")
    sizes = {col: f.num_bytes for (_, _, col), f in _filters(Path(out)).items()}
    assert sizes == {"email": filter_bytes(spark, 777, 0.01)}
    assert spark.read.parquet(out).count() == 2000


def test_create_table_as_select(spark, tmp_path) -> None:
    loc = tmp_path / "ctas"
    spark.sql("DROP TABLE IF EXISTS bp_ctas")
    spark.sql(
        f"CREATE TABLE bp_ctas USING {WRITE_FORMAT} OPTIONS ('bloom.columns'='user_id') "
        f"LOCATION '{loc}' AS SELECT id AS user_id, concat('e', id) AS email FROM range(1000)"
    )
    try:
        assert spark.sql("SELECT email FROM bp_ctas WHERE user_id = 42").collect()[0].email == "e42"
        spark.sql("INSERT INTO bp_ctas SELECT 5000, 'late'")
        cols = {col for (_, _, col) in _filters(loc)}
        assert cols == {"user_id"}
        assert len({name for (name, _, _) in _filters(loc)}) == len(list(loc.glob("*.parquet")))
    finally:
        spark.sql("DROP TABLE IF EXISTS bp_ctas")


def test_no_columns_is_plain_parquet(df, tmp_path) -> None:
    out = tmp_path / "t"
    df.select("id").write.format(WRITE_FORMAT).save(str(out))
    assert all(not read_bloom_filters(f) for f in out.glob("*.parquet"))


@pytest.mark.parametrize("sizing", ["exact", "fold"])
def test_measured_fpp_without_ndv(spark, tmp_path, sizing) -> None:
    """NDVs 10 .. 50,000 in one row group each; FPP on absent values within 1.2x target
    (the JVM suite covers up to 1,000,000)."""
    rows, fpp = 50_000, 0.01
    out = tmp_path / "t"
    df = spark.sql(f"SELECT id % 10 AS a, id % 1000 AS b, id AS c FROM range({rows})")
    (
        df.coalesce(1)
        .write.format(WRITE_FORMAT)
        .options(**{"bloom.columns": "a,b,c", "bloom.fpp": str(fpp), "bloom.sizing": sizing})
        .option("parquet.block.size", 64 * 1024 * 1024)
        .save(str(out))
    )
    (path,) = out.glob("*.parquet")
    assert pq.ParquetFile(path).metadata.num_row_groups == 1
    filters = read_bloom_filters(path)
    absent = xxh64_plain(np.arange(10**9, 10**9 + 400_000, dtype=np.int64), "INT64")
    for col, ndv in [("a", 10), ("b", 1000), ("c", rows)]:
        f = filters[(0, col)]
        present = xxh64_plain(np.arange(ndv, dtype=np.int64), "INT64")
        assert f.check_hashes(present).all()
        measured = f.check_hashes(absent).mean()
        assert measured <= 1.2 * fpp, (col, sizing, measured, f.num_bytes)
        if sizing == "exact":
            assert f.num_bytes == filter_bytes(spark, ndv, fpp)
            assert f.num_bytes <= 1.1 * optimal_num_bytes(ndv, fpp) + 32
        else:
            assert f.num_bytes <= 1.5 * filter_bytes(spark, ndv, fpp) + 32 * 315
