"""Encrypted files (Parquet modular encryption, parquet-java's PropertiesDrivenCryptoFactory
with the test jar's in-memory KMS): with the keys, filters are decrypted and prune, rows equal
to Spark's ``parquet`` with pushdown off; without them, the query fails as Spark's ``parquet``
fails; a tampered filter is ignored and counted; our writer's encrypted filters read back in
parquet-java; retrofit refuses encrypted files."""

from __future__ import annotations

import base64
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import bloomparquet as bp

from .encrypted_files import FOOTERS, KEYS, write_encrypted
from .schema_reads import same_schema
from .spark_conf import PUSHDOWN_OFF, rows, spark_conf
from .write_format import filter_bytes

pytestmark = pytest.mark.spark

ROWS = 20_000
# Keys beyond the int range, so py4j hands them to parquet-java's hash(long) as Java longs.
BASE = 1 << 33
# k = BASE + 2 * (a permutation of 0..ROWS-1): every row group's min/max spans nearly all keys,
# so statistics prune nothing and only the (encrypted) filters can; odd offsets are absent.
K = f"{BASE}L + 2 * ((id * 7919) % {ROWS})"
PRESENT, ABSENT = BASE + 2 * 1234, BASE + 2 * 1234 + 1


def _write(spark, out: Path, writer: str, footer: str) -> None:
    df = spark.range(0, ROWS).selectExpr(f"{K} AS k", "CAST(id % 2500 AS STRING) AS s").repartition(1)
    write_encrypted(df, out, writer, footer, {"k": 4000, "s": 2500})


@pytest.fixture(scope="module")
def written(spark, tmp_path_factory) -> dict[tuple[str, str], Path]:
    root = tmp_path_factory.mktemp("encrypted")
    out = {}
    for writer in ("spark", "ours"):
        for footer in FOOTERS:
            out[writer, footer] = root / f"{writer}-{footer}"
            _write(spark, out[writer, footer], writer, footer)
    return out


CASES = [(w, f) for w in ("spark", "ours") for f in FOOTERS]


def _file(d: Path) -> Path:
    (f,) = d.glob("*.parquet")
    return f


# --- with the keys ---


@pytest.mark.parametrize("mode", ["plan", "task"])
@pytest.mark.parametrize(("writer", "footer"), CASES)
def test_keys_decrypt_filters_and_prune(spark, oracle, written, writer, footer, mode) -> None:
    d = written[writer, footer]
    assert _file(d).read_bytes()[-4:] == (b"PARE" if footer == "encrypted" else b"PAR1")
    with spark_conf(spark, KEYS):
        # (predicate, row groups the filters must prune: all, or some but not all)
        for where, pruned in ((f"k = {PRESENT}", "some"), (f"k = {ABSENT}", "all"), ("s = '1250.5'", "all")):
            q = bp.read_bloom(spark, str(d), **{"bloom.mode": mode}).where(where)
            assert rows(q) == oracle(d, where), where
            m = bp.scan_metrics(q)
            assert m["bloomBrokenFilters"] == 0 and m["bloomUnreadableFiles"] == 0, (where, m)
            total, by_bloom = m["bloomRowGroupsTotal"], m["bloomRowGroupsPrunedByBloom"]
            by_stats = m["bloomRowGroupsPrunedByStats"]
            assert total >= 3 and m["bloomFilterBytesRead"] > 0 and by_stats <= 1, (where, m)
            assert {"all": by_bloom > 0 and by_bloom + by_stats == total, "some": 0 < by_bloom < total}[pruned], (
                where,
                m,
            )


def test_keys_as_read_options(spark, written) -> None:
    """The keys given to the read alone (not the session) reach planning as they reach Spark's reader."""
    d = written["ours", "encrypted"]
    for mode in ("plan", "task"):
        q = bp.read_bloom(spark, str(d), **{"bloom.mode": mode}, **KEYS).where(f"k = {ABSENT}")
        assert q.collect() == []
        m = bp.scan_metrics(q)
        assert m["bloomRowGroupsPrunedByBloom"] == m["bloomRowGroupsTotal"] >= 3, m


@pytest.mark.parametrize("writer", ["spark", "ours"])
def test_a_paths_schema_is_read_with_the_keys_as_spark_reads_it(spark, written, writer) -> None:
    """An encrypted footer's stored schema is read on the driver with the read's or the session's
    keys (no Spark job); without keys the read fails as Spark's ``parquet`` fails, and that
    failure is not remembered against the reads that have the keys."""
    d = written[writer, "encrypted"]
    want, _, _ = same_schema(spark, d)
    assert isinstance(want, str), want  # Spark's error, which ours matched
    _, jobs, _ = same_schema(spark, d, **KEYS)
    assert jobs == 0
    with spark_conf(spark, KEYS):
        _, jobs, sql_jobs = same_schema(spark, d)
    assert (jobs, sql_jobs) == (0, 0)


@pytest.mark.parametrize(("writer", "footer"), [("spark", "encrypted"), ("ours", "plaintext")])
def test_keys_sql_route(spark, oracle, written, writer, footer) -> None:
    d = written[writer, footer]
    with spark_conf(spark, KEYS):
        for where in (f"k = {PRESENT}", f"k = {ABSENT}", f"k IN ({PRESENT}, {ABSENT}) OR s = '3'"):
            got = rows(spark.sql(f"SELECT * FROM bloomparquet.`{d}` WHERE {where}"))
            assert got == oracle(d, where), where


# --- without the keys: fail exactly as Spark's parquet ---


def _failure(run: Callable[[], object]) -> tuple[str, ...]:
    """What a failed query raised: exception class, Spark's error condition, root cause class and message."""
    with pytest.raises(Exception) as info:  # noqa: PT011 - any failure: what it is, is compared
        run()
    java = getattr(info.value, "java_exception", None) or getattr(info.value, "_origin", None)
    assert java is not None, info.value
    root = java
    while root.getCause() is not None:
        root = root.getCause()
    condition = java.getCondition() if hasattr(java, "getCondition") else ""
    return (java.getClass().getName(), str(condition), root.getClass().getName(), str(root.getMessage()))


def _schema(spark, d: Path) -> str:
    with spark_conf(spark, KEYS):
        return spark.read.parquet(str(d)).schema.simpleString()


@pytest.mark.parametrize(("writer", "footer"), CASES)
def test_without_keys_fails_as_parquet_fails(spark, written, writer, footer) -> None:
    d = str(written[writer, footer])
    schema = _schema(spark, written[writer, footer])[len("struct<") : -1].replace(":", " ")
    where = f"k = {ABSENT}"
    expected = _failure(lambda: spark.read.parquet(d).where(where).collect())
    routes = {
        "plan": lambda: bp.read_bloom(spark, d).where(where).collect(),
        "task": lambda: bp.read_bloom(spark, d, **{"bloom.mode": "task"}).where(where).collect(),
    }
    for name, run in routes.items():
        assert _failure(run) == expected, name
    sql = "SELECT * FROM {}.`" + d + "` WHERE " + where
    assert _failure(lambda: spark.sql(sql.format("bloomparquet")).collect()) == _failure(
        lambda: spark.sql(sql.format("parquet")).collect()
    )
    # With the schema given, planning reads the footer itself: the file is kept whole, the task fails as parquet's.
    expected = _failure(lambda: spark.read.schema(schema).parquet(d).where(where).collect())
    for mode in ("plan", "task"):
        got = _failure(
            lambda mode=mode: (
                spark.read.format("bloomparquet")
                .schema(schema)
                .option("bloom.mode", mode)
                .load(d)
                .where(where)
                .collect()
            )
        )
        assert got == expected, mode


@pytest.mark.parametrize("writer", ["spark", "ours"])
def test_plaintext_footer_without_keys_reads_plaintext_columns_unpruned(spark, written, writer) -> None:
    """The plaintext column s is readable without keys: same rows as parquet, and the file is
    kept whole (its encrypted column's metadata and filter are sealed), never pruned on guesses."""
    d = written[writer, "plaintext"]
    for where in ("s = '1250.5'", "s = '17'"):
        with spark_conf(spark, PUSHDOWN_OFF):
            expected = sorted(spark.read.parquet(str(d)).where(where).select("s").collect())
        for mode in ("plan", "task"):
            q = bp.read_bloom(spark, str(d), **{"bloom.mode": mode}).where(where).select("s")
            assert sorted(q.collect()) == expected, (where, mode)
            m = bp.scan_metrics(q)
            assert m["bloomRowGroupsPrunedByBloom"] == 0 and m["bloomFilesPruned"] == 0, m
            assert m["bloomUnreadableFiles"] == 1, m


# --- tampered filters ---


def _reader(spark, path: Path):
    """parquet-java's reader of ``path`` with the session's keys."""
    jvm = spark._jvm
    with spark_conf(spark, KEYS):
        conf = spark._jsparkSession.sessionState().newHadoopConf()
    p = jvm.org.apache.hadoop.fs.Path(str(path))
    options = jvm.org.apache.parquet.HadoopReadOptions.builder(conf, p).build()
    return jvm.org.apache.parquet.hadoop.ParquetFileReader.open(
        jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(p, conf), options
    )


def _filter_offsets(spark, path: Path) -> list[int]:
    reader = _reader(spark, path)
    try:
        blocks = reader.getFooter().getBlocks()
        return [blocks.get(i).getColumns().get(0).getBloomFilterOffset() for i in range(blocks.size())]
    finally:
        reader.close()


@pytest.mark.parametrize(("writer", "footer"), [("spark", "encrypted"), ("ours", "plaintext")])
def test_tampered_filter_is_ignored_and_counted(spark, oracle, written, writer, footer, tmp_path) -> None:
    src = _file(written[writer, footer])
    d = tmp_path / "t"
    d.mkdir()
    path = Path(shutil.copy(src, d / src.name))
    offsets = _filter_offsets(spark, path)
    data = bytearray(path.read_bytes())
    header_len = int.from_bytes(data[offsets[0] : offsets[0] + 4], "little")
    data[offsets[0] + 4 + header_len + 4 + 12 + 5] ^= 0x01  # row group 0: a bitset ciphertext byte
    data[offsets[1] + 4 + 12 + 1] ^= 0x01  # row group 1: a header ciphertext byte
    path.write_bytes(bytes(data))
    with spark_conf(spark, KEYS):
        for mode in ("plan", "task"):
            for where in (f"k = {ABSENT}", f"k = {PRESENT}"):
                q = bp.read_bloom(spark, str(d), **{"bloom.mode": mode}).where(where)
                assert rows(q) == oracle(d, where), (mode, where)
                m = bp.scan_metrics(q)
                assert m["bloomBrokenFilters"] == 2, (mode, where, m)
            # The two row groups whose filters fail their tag are read; all others pruned.
            assert m["bloomRowGroupsTotal"] - m["bloomRowGroupsPrunedByBloom"] >= 2
        assert sorted(spark.sql(f"SELECT * FROM bloomparquet.`{d}` WHERE k = {ABSENT}").collect()) == []


# --- our writer ---


@pytest.mark.parametrize("footer", list(FOOTERS))
def test_our_encrypted_filters_read_back_in_parquet_java(spark, written, footer) -> None:
    """parquet-java's readBloomFilter, with the keys, decrypts each filter of ours and finds every key."""
    path = _file(written["ours", footer])
    with spark_conf(spark, KEYS):
        keys = spark.read.parquet(str(path)).select("k").toPandas()["k"].tolist()
    reader = _reader(spark, path)
    try:
        blocks = reader.getFooter().getBlocks()
        assert blocks.size() >= 3
        seen = 0
        for i in range(blocks.size()):
            chunk = blocks.get(i).getColumns().get(0)
            assert chunk.isEncrypted() and chunk.getBloomFilterOffset() > 0
            bf = reader.readBloomFilter(chunk)
            assert bf is not None, i
            rows = blocks.get(i).getRowCount()
            # parquet-java's adaptive sizing: a power of two holding the chunk's distinct keys at 1 %.
            assert chunk.getBloomFilterLength() <= 4 * filter_bytes(spark, rows, 0.01) + 128, i
            group = keys[seen : seen + rows]
            seen += rows
            assert all(bf.findHash(bf.hash(k)) for k in group[:300]), i
            false_positives = sum(bf.findHash(bf.hash(k + 1)) for k in group[:300])
            assert false_positives <= 0.05 * min(len(group), 300), (i, false_positives)
    finally:
        reader.close()


def _pyarrow_decryption(spark):
    """pyarrow's decryption properties for the master keys of KEYS. Its KMS client unwraps with
    parquet-java's KeyToolkit through py4j: the same AES-GCM key wrapping as the test jar's KMS."""
    import pyarrow.parquet.encryption as pe

    toolkit = spark._jvm.org.apache.parquet.crypto.keytools.KeyToolkit
    masters = {
        k.strip(): base64.b64decode(v)
        for k, v in (e.split(":") for e in KEYS["parquet.encryption.key.list"].split(","))
    }

    class JvmKms(pe.KmsClient):
        def wrap_key(self, key_bytes: bytes, master_key_identifier: str) -> str:
            return toolkit.encryptKeyLocally(
                bytearray(key_bytes),
                bytearray(masters[master_key_identifier]),
                bytearray(master_key_identifier.encode()),
            )

        def unwrap_key(self, wrapped_key: str, master_key_identifier: str) -> bytes:
            return bytes(
                toolkit.decryptKeyLocally(
                    wrapped_key, bytearray(masters[master_key_identifier]), bytearray(master_key_identifier.encode())
                )
            )

    factory = pe.CryptoFactory(lambda _config: JvmKms())
    return factory.file_decryption_properties(pe.KmsConnectionConfig(), pe.DecryptionConfiguration())


@pytest.mark.parametrize("footer", list(FOOTERS))
def test_our_encrypted_files_read_in_pyarrow(spark, written, footer) -> None:
    """pyarrow decrypts our files and finds a filter for every chunk of k and s before the footer.
    (pyarrow 26 has no Python API that reads a filter's bytes, only its offset and length.)"""
    import pyarrow.parquet as pq

    path = _file(written["ours", footer])
    pf = pq.ParquetFile(path, decryption_properties=_pyarrow_decryption(spark))
    table = pf.read()
    with spark_conf(spark, KEYS):
        expected = sorted(spark.read.parquet(str(path)).collect())
    assert sorted(zip(table["k"].to_pylist(), table["s"].to_pylist())) == [tuple(r) for r in expected]
    size = path.stat().st_size
    for rg in range(pf.metadata.num_row_groups):
        for c in range(2):
            chunk = pf.metadata.row_group(rg).column(c)
            end = chunk.bloom_filter_offset + chunk.bloom_filter_length
            assert chunk.bloom_filter_length > 0 and end < size, (rg, c)


def test_retrofit_refuses_encrypted_files(spark, written) -> None:
    for footer in FOOTERS:
        path = _file(written["spark", footer])
        before = path.read_bytes()
        refused = pytest.raises(Exception, match="neither decrypt such files nor add filters to them")
        with spark_conf(spark, KEYS), refused:
            bp.retrofit(spark, str(path), ["s"])
        assert path.read_bytes() == before


def test_sql_functions_on_encrypted_files(spark, written) -> None:
    """The filter functions hold no keys: an encrypted footer is refused naming why; in a plaintext
    footer the encrypted column's filters are reported as not decrypted, plaintext ones read."""
    with pytest.raises(Exception, match="neither decrypt such files"):
        spark.sql(f"SELECT * FROM bloomparquet_filters('{written['spark', 'encrypted']}')").collect()
    rows = spark.sql(f"SELECT column, status FROM bloomparquet_filters('{written['spark', 'plaintext']}')").collect()
    assert {r.status for r in rows if r.column == "k"} == {
        "encrypted column (Parquet modular encryption): its filter is not decrypted here"
    }
    assert {r.status for r in rows if r.column == "s"} == {"ok"}


def test_wrong_keys_fail_as_parquet_fails(spark, written) -> None:
    """Other master keys (under their own access token, so no KMS client or key cached for the right
    ones is reused): the footer or column does not decrypt, for Spark's parquet and for us alike."""
    wrong = {
        **KEYS,
        "parquet.encryption.key.access.token": "wrong",
        "parquet.encryption.key.list": "kf: {}, kc: {}".format(
            base64.b64encode(b"other footer key").decode(), base64.b64encode(b"other column key").decode()
        ),
    }
    for footer in FOOTERS:
        d = str(written["ours", footer])
        where = f"k = {ABSENT}"
        with spark_conf(spark, wrong):
            expected = _failure(lambda: spark.read.parquet(d).where(where).collect())  # noqa: B023
            for mode in ("plan", "task"):
                got = _failure(lambda: bp.read_bloom(spark, d, **{"bloom.mode": mode}).where(where).collect())  # noqa: B023
                assert got == expected, (footer, mode)


@pytest.mark.parametrize("footer", list(FOOTERS))
@pytest.mark.parametrize("writer", ["spark", "ours"])
def test_reference_reader_refuses_encrypted_files(written, writer: str, footer: str) -> None:
    """`reference.read_bloom_filters` finds encrypted columns or footers in its own decoding of the footer and
    raises, naming them: handed to pyarrow, a plaintext footer's encrypted column metadata aborts the process."""
    from bloomparquet.reference import read_bloom_filters

    with pytest.raises(ValueError, match="encrypted footer" if footer == "encrypted" else r"encrypted .*\(.*k"):
        read_bloom_filters(_file(written[(writer, footer)]))
