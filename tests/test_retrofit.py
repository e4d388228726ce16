"""Retrofit: filters added to existing files leave every data byte, page index,
statistic and key-value entry as it was, read back in our reader, pyarrow and
DuckDB, and a failed run leaves the original files untouched."""

from __future__ import annotations

import hashlib
import shutil
import struct
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from py4j.protocol import Py4JJavaError

import bloomparquet
from bloomparquet._session import java_map
from bloomparquet.cli import main
from bloomparquet.reference import read_bloom_filters, xxh64_plain

from .plain import chunks

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def source(spark, tmp_path_factory) -> Path:
    """Two plain Spark Parquet files, several row groups each, parquet-java's own filter on id."""
    out = tmp_path_factory.mktemp("retrofit") / "src"
    df = spark.sql(
        "SELECT id * 7919 % 100003 AS id, concat('user', id, '@ex.com') AS email, id % 2 = 0 AS flag, "
        "named_struct('x', id, 'y', concat('k', id % 3000)) AS s FROM range(12000)"
    )
    (
        df.repartition(2)
        .write.option("parquet.block.size", 32 * 1024)
        .option("parquet.bloom.filter.enabled#id", "true")
        .option("parquet.bloom.filter.expected.ndv#id", "2000")
        .parquet(str(out))
    )
    return out


@pytest.fixture
def dataset(source, tmp_path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(source, dst)
    return dst


def _files(d: Path) -> list[Path]:
    return sorted(d.glob("*.parquet"))


def _digest(d: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.iterdir())}


def _footer_start(data: bytes) -> int:
    (length,) = struct.unpack("<i", data[-8:-4])
    return len(data) - 8 - length


def _chunk_facts(path: Path) -> list[tuple]:
    meta = pq.ParquetFile(path).metadata
    facts = []
    for rg in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            d = meta.row_group(rg).column(c).to_dict()
            facts.append(tuple(str(d[k]) for k in sorted(d) if not k.startswith("bloom_filter")))
    return facts


def _chunk_ranges(path: Path) -> list[tuple[int, int]]:
    meta = pq.ParquetFile(path).metadata
    out = []
    for rg in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            col = meta.row_group(rg).column(c)
            start = min(x for x in (col.dictionary_page_offset, col.data_page_offset) if x is not None)
            out.append((start, col.total_compressed_size))
    return out


def test_retrofit_keeps_data_and_adds_readable_filters(spark, dataset, bridge) -> None:
    before = {p.name: p.read_bytes() for p in _files(dataset)}
    facts = {p.name: _chunk_facts(p) for p in _files(dataset)}
    kv = {p.name: pq.ParquetFile(p).metadata.metadata for p in _files(dataset)}
    old_filters = {p.name: read_bloom_filters(p) for p in _files(dataset)}
    rows = sorted(spark.read.parquet(str(dataset)).collect())

    results = bloomparquet.retrofit(spark, str(dataset), ["email", "S.Y"], fpp=0.01)
    assert sorted(r["status"] for r in results) == ["retrofitted", "retrofitted"]
    assert all(r["columns"] == "email,s.y" for r in results)
    assert all(r["file_bytes"] == Path(r["path"].removeprefix("file:")).stat().st_size for r in results)

    for path in _files(dataset):
        old, new = before[path.name], path.read_bytes()
        # Everything before the old footer (row groups, page indexes, old filters) is unchanged ...
        assert new[: _footer_start(old)] == old[: _footer_start(old)]
        # ... in particular each column chunk's bytes.
        for start, size in _chunk_ranges(path):
            assert new[start : start + size] == old[start : start + size]
        meta = pq.ParquetFile(path).metadata
        assert meta.metadata == kv[path.name]
        assert _chunk_facts(path) == facts[path.name]  # stats, offsets, page index presence
        assert all(meta.row_group(0).column(c).has_column_index for c in range(meta.num_columns))

        filters = read_bloom_filters(path)
        jvm = {k: bytes(v) for k, v in java_map(bridge.readFilters(str(path))).items()}
        assert {f"{rg}/{c}" for rg, c in filters} == set(jvm)
        for key, f in old_filters[path.name].items():
            assert filters[key] == f, "an existing filter changed"
        for rg, col, ptype, _, values in chunks(str(path)):
            if col in ("email", "s.y"):
                assert filters[(rg, col)].check_hashes(xxh64_plain(values, ptype)).all(), (rg, col)
                assert jvm[f"{rg}/{col}"] == filters[(rg, col)].to_bytes()
        con = duckdb.connect()
        email = pq.read_table(path, columns=["email"]).column(0)[0].as_py()
        probe = "SELECT bloom_filter_excludes FROM parquet_bloom_probe(?, 'email', ?) WHERE row_group_id = 0"
        assert con.execute(probe, [str(path), email]).fetchall() == [(False,)]
        absent = con.execute("SELECT bloom_filter_excludes FROM parquet_bloom_probe(?, 'email', 'nobody')", [str(path)])
        assert sum(x for (x,) in absent.fetchall()) >= meta.num_row_groups - 1

    assert sorted(spark.read.parquet(str(dataset)).collect()) == rows
    assert spark.read.parquet(str(dataset)).where("email = 'user77@ex.com'").count() == 1
    assert pq.read_table(dataset).num_rows == 12000

    # Again: nothing to do. With --overwrite, parquet-java's id filters are replaced by right-sized ones.
    digest = _digest(dataset)
    assert {r["status"] for r in bloomparquet.retrofit(spark, str(dataset), "email", fpp=0.01)} == {"unchanged"}
    assert _digest(dataset) == digest
    bloomparquet.retrofit(spark, str(dataset), ["id"], fpp=0.01, overwrite=True)
    for path in _files(dataset):
        filters = read_bloom_filters(path)
        for rg, col, ptype, _, values in chunks(str(path)):
            if col == "id":
                assert filters[(rg, col)] != old_filters[path.name][(rg, col)]
                assert filters[(rg, col)].check_hashes(xxh64_plain(values, ptype)).all()


@pytest.mark.parametrize("failure", ["write", "rename"])
def test_failed_run_leaves_originals(spark, dataset, failure) -> None:
    """A task that dies writing its temporary file, or at the rename over the
    original, leaves every original byte as it was and no temporary file."""
    # Writes fail once a temporary file holds the smallest file's data bytes: its copy done, its tail not.
    limit = min(_footer_start(p.read_bytes()) for p in _files(dataset)) if failure == "write" else -1
    conf = dict(spark._jvm.io.bloomparquet.testing.FailingFileSystem.settings(limit, failure == "rename"))
    message = f"past {limit} bytes refused" if failure == "write" else r"failing: rename .* refused"
    digest = _digest(dataset)
    with pytest.raises(Py4JJavaError, match=message):
        bloomparquet.retrofit(spark, f"failing://{dataset}", ["email"], conf=conf)
    assert _digest(dataset) == digest  # same files, same bytes, no temporary left behind
    assert spark.read.parquet(str(dataset)).count() == 12000


@pytest.mark.parametrize(
    ("columns", "message"),
    [(["nope"], "unknown column 'nope'"), (["flag"], "BOOLEAN"), (["s"], "unknown column 's'")],
)
def test_bad_columns_are_refused(spark, dataset, columns, message) -> None:
    digest = _digest(dataset)
    with pytest.raises(Exception, match=message):
        bloomparquet.retrofit(spark, str(dataset), columns)
    assert _digest(dataset) == digest


def test_encrypted_and_bad_fpp_refused(spark, dataset) -> None:
    with pytest.raises(ValueError, match="option 'bloom.fpp' = '1.5': expected a probability"):
        bloomparquet.retrofit(spark, str(dataset), ["email"], fpp=1.5)
    fake = dataset / "enc" / "x.parquet"
    fake.parent.mkdir()
    data = bytearray(_files(dataset)[0].read_bytes())
    data[-4:] = b"PARE"
    fake.write_bytes(bytes(data))
    with pytest.raises(Exception, match="encrypt"):
        bloomparquet.retrofit(spark, str(fake), ["email"])
    assert fake.read_bytes() == bytes(data)


def test_cli(spark, dataset, capsys) -> None:
    assert main(["retrofit", str(dataset), "--columns", "email,s.x", "--fpp", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 files retrofitted" in out
    assert all((0, "s.x") in read_bloom_filters(p) for p in _files(dataset))
