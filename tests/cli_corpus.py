"""A corpus of Parquet files for the command line's robustness test: files by pyarrow, DuckDB,
Spark (parquet-java) and our writer, flat and nested (list of int, struct, map, list of struct,
Spark's legacy 2-level lists), with nulls-only chunks; encrypted files with plaintext and
encrypted footers; and damaged files (truncated, garbage footers, undecodable pages, broken
filters). Each file says which column ``probe`` asks about and which exit status each command
must end with."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from bloomparquet.reference._thrift import read_struct

from .encrypted_files import write_encrypted
from .probe_files import write_files
from .spark_conf import spark_conf

# The commands that read files, as the variants the test runs: each command as text and as --json.
VARIANTS = (
    "inspect",
    "inspect --json",
    "probe",
    "probe --json",
    "verify",
    "verify --rebuild --json",
    "advise",
    "advise --json",
)


@dataclass(frozen=True)
class CorpusFile:
    """One file, the column and value ``probe`` asks about, the ``--columns`` the other
    commands get (None: every column), and the exit status per variant (0 unless ``exits``
    says otherwise); ``message`` is text an exit-2 line must hold."""

    name: str
    path: Path
    column: str
    value: str = "1"
    exits: dict[str, int] = field(default_factory=dict)
    message: str = ""
    columns: str | None = None

    def exit_for(self, variant: str) -> int:
        return self.exits.get(variant, 0)


ALL_2 = dict.fromkeys(VARIANTS, 2)
_REBUILD_AND_ADVISE = ("verify --rebuild --json", "advise", "advise --json")  # the variants that decode pages


def _only(d: Path) -> Path:
    (f,) = d.glob("*.parquet")
    return f


# --- files by pyarrow and DuckDB (no JVM) ---


def _pyarrow_nested(path: Path) -> None:
    """list of int, struct, map, list of struct, a column null in the first row group only
    (a nulls-only chunk) and one null everywhere, with filters on leaves at every depth."""
    n = 4000
    ids = np.random.default_rng(3).permutation(n)
    table = pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "l": pa.array([[int(i), int(i) + 1] if i % 7 else None for i in ids], pa.list_(pa.int64())),
            "s": pa.StructArray.from_arrays(
                [pa.array(ids, pa.int64()), pa.array([f"k{i}" for i in ids])], names=["x", "y"]
            ),
            "m": pa.array([[(f"a{i}", int(i))] for i in ids], pa.map_(pa.string(), pa.int64())),
            "ls": pa.array(
                [[{"a": int(i), "b": f"b{i}"}] * (int(i) % 3) for i in ids],
                pa.list_(pa.struct([("a", pa.int64()), ("b", pa.string())])),
            ),
            "late": pa.array([None if r < 1000 else int(i) for r, i in enumerate(ids)], pa.int64()),
            "nothing": pa.array([None] * n, pa.string()),
            "flag": pa.array(ids % 2 == 0),
        }
    )
    filtered = ["id", "l.list.element", "s.x", "s.y", "m.key_value.key", "ls.list.element.a", "late", "nothing"]
    pq.write_table(
        table, path, row_group_size=1000, bloom_filter_options={c: {"ndv": 1000, "fpp": 0.05} for c in filtered}
    )


def _duckdb_nested(path: Path) -> None:
    con = duckdb.connect()
    con.execute(f"""COPY (SELECT i AS id, 'c' || (i % 100) AS cat, CASE WHEN i < 1500 THEN NULL ELSE i END AS late,
        [i, i + 1]::BIGINT[] AS l, {{'x': i, 'y': 'k' || i}} AS s, MAP(['a' || (i % 50)], [i]) AS m,
        [{{'a': i % 40, 'b': 'b' || (i % 40)}}] AS ls, NULL::INTEGER AS nothing
        FROM range(6000) t(i)) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 1500)""")
    con.close()


def _flip(src: Path, dst: Path, start: int, end: int, byte: int | None = None) -> Path:
    """``src`` with bytes [start, end) XOR-ed with 0x5a (or set to ``byte``), as ``dst``."""
    data = bytearray(src.read_bytes())
    for i in range(start, end):
        data[i] = byte if byte is not None else data[i] ^ 0x5A
    dst.write_bytes(bytes(data))
    return dst


def _footer(data: bytes) -> tuple[int, int]:
    """(start, length) of the footer."""
    length = int.from_bytes(data[-8:-4], "little")
    return len(data) - 8 - length, length


def _damaged(src: Path, out: Path) -> list[CorpusFile]:
    """Files that are not readable Parquet, or whose pages or filters are damaged, from ``src``
    (pyarrow's flat file: snappy pages, a filter on every column)."""
    data = src.read_bytes()
    start, length = _footer(data)
    meta = pq.ParquetFile(src).metadata
    i64 = [meta.schema.column(i).path for i in range(meta.num_columns)].index("i64")
    chunk = meta.row_group(0).column(i64)
    first_page = chunk.dictionary_page_offset or chunk.data_page_offset
    header, header_size = read_struct(data[first_page : first_page + 256])
    body = first_page + header_size  # the first page's compressed bytes: field 3 of its PageHeader
    rng = random.Random(5)
    files = {
        "zero-byte": b"",
        "text": b"hello, not parquet\n" * 10,
        "truncated": data[: len(data) // 2],
        "truncated footer": data[:-40],
        "footer length past the file": data[:-8] + (len(data) * 4).to_bytes(4, "little") + b"PAR1",
        "footer length 0": data[:-8] + bytes(4) + b"PAR1",
        "garbage footer": data[:start] + bytes(rng.randrange(256) for _ in range(length)) + data[-8:],
        "footer cut in half": data[: start + length // 2] + (length // 2).to_bytes(4, "little") + b"PAR1",
        "only magic": b"PAR1" + bytes(4) + b"PAR1",
    }
    out_files = []
    for name, content in files.items():
        p = out / f"{name.replace(' ', '-')}.parquet"
        p.write_bytes(content)
        out_files.append(CorpusFile(name, p, "i64", exits=ALL_2))
    # Pages: inspect, probe and verify read footers and filters only; verify --rebuild and advise decode pages.
    pages = dict.fromkeys(_REBUILD_AND_ADVISE, 2)
    out_files += [
        CorpusFile(
            "page header garbage",
            _flip(src, out / "page-header.parquet", first_page, first_page + 64, 0xAB),
            "i64",
            "123",
            pages,
            "row group 0, column i64: pages do not decode",
        ),
        CorpusFile(
            "compressed page bytes flipped",
            _flip(src, out / "page-body.parquet", body, body + header[3]),
            "i64",
            "123",
            pages,
            "row group 0, column i64: pages do not decode",
        ),
    ]
    # Filters: a header that does not parse, a bitset of zeros (excludes its own chunk's min and max).
    fchunk = meta.row_group(1).column(i64)
    off, flen = fchunk.bloom_filter_offset, fchunk.bloom_filter_length
    bitset = off + read_struct(data[off : off + flen])[1]
    out_files += [
        CorpusFile(
            "filter header garbage",
            _flip(src, out / "filter-header.parquet", off, off + 6, 0x7F),
            "i64",
            "123",
            {"verify": 1, "verify --rebuild --json": 1},
        ),
        CorpusFile(
            "filter bitset zeroed",
            _flip(src, out / "filter-bitset.parquet", bitset, off + flen, 0),
            "i64",
            "123",
            {"verify": 1, "verify --rebuild --json": 1},
        ),
    ]
    return out_files


def local_corpus(root: Path) -> list[CorpusFile]:
    """Files by pyarrow and DuckDB, and damaged files; no JVM."""
    flat = root / "pyarrow-flat.parquet"
    write_files("pyarrow", flat)
    duck = root / "duckdb-flat.parquet"
    write_files("duckdb", duck)
    nested, duck_nested = root / "pyarrow-nested.parquet", root / "duckdb-nested.parquet"
    _pyarrow_nested(nested)
    _duckdb_nested(duck_nested)
    damaged = root / "damaged"
    damaged.mkdir()
    return [
        CorpusFile("pyarrow flat", flat, "str", "user-4-ü日"),
        CorpusFile("duckdb flat", duck, "i64", "-4000000028"),
        CorpusFile("pyarrow nested", nested, "s.y", "k5"),
        CorpusFile("pyarrow nested, list leaf", nested, "l.list.element", "5"),
        CorpusFile("pyarrow nulls-only chunk", nested, "late", "5"),
        CorpusFile("pyarrow all-null column", nested, "nothing", "x"),
        CorpusFile("duckdb nested", duck_nested, "cat", "c5"),
        CorpusFile("duckdb map leaf", duck_nested, "m.key_value.key", "a5"),
        *_damaged(flat, damaged),
        *_file_classes(root / "file-classes"),
    ]


def _file_classes(root: Path) -> list[CorpusFile]:
    """tests/corpus' real-world file classes pyarrow and DuckDB write (lying column indexes, odd
    encodings, INT96, decimals, float16, brotli, ...): one file of each, probed on its filtered key."""
    from .corpus import write_all
    from .corpus.rows import HIT_ID, key

    return [
        CorpusFile(f"class {name}", sorted(d.glob("*.parquet"))[0], "k", str(key(HIT_ID)))
        for name, d in write_all(root).items()
    ]


# --- files by Spark and our writer (a JVM) ---

_NESTED = (
    "id",
    "CAST(id AS STRING) AS s0",
    "sequence(id, id + (id % 3)) AS arr",
    "named_struct('x', id * 2, 'y', concat('k', CAST(id AS STRING))) AS st",
    "map(concat('a', CAST(id % 50 AS STRING)), id) AS m",
    "array(named_struct('a', id % 40, 'b', CAST(id AS STRING))) AS arrst",
    "CASE WHEN id < 3000 THEN NULL ELSE id END AS late",
    "CAST(NULL AS BIGINT) AS nothing",
)


def _spark_nested(spark, out: Path, writer: str, legacy: bool = False) -> Path:
    df = spark.range(0, 12_000).selectExpr(*_NESTED).coalesce(1)
    w = df.write.option("parquet.block.size", 64 * 1024)
    with spark_conf(spark, {"spark.sql.parquet.writeLegacyFormat": str(legacy).lower()}):
        if writer == "spark":
            for c in ("id", "st.y", "late", "nothing"):
                w = w.option(f"parquet.bloom.filter.enabled#{c}", "true")
            w.parquet(str(out))
        else:
            w.format("bloomparquet").option("bloom.columns", "id, st.y, late").save(str(out))
    return _only(out)


def spark_corpus(spark, root: Path) -> list[CorpusFile]:
    """Files by Spark's ``parquet`` and our writer, flat, nested, and encrypted."""
    files = [
        CorpusFile("spark flat", write_files("spark", root / "spark-flat", spark)[0], "str", "user-4-ü日"),
        CorpusFile("ours flat", write_files("ours", root / "ours-flat", spark)[0], "i64", "-4000000028"),
        CorpusFile("spark nested", _spark_nested(spark, root / "spark-nested", "spark"), "st.y", "k7"),
        CorpusFile(
            "spark nested, legacy lists",
            _spark_nested(spark, root / "spark-legacy", "spark", legacy=True),
            "late",
            "3001",
        ),
        CorpusFile("ours nested", _spark_nested(spark, root / "ours-nested", "ours"), "st.y", "k7"),
    ]
    df = spark.range(0, 20_000).selectExpr("id * 2 AS k", "CAST(id % 2500 AS STRING) AS s").repartition(1)
    for writer in ("spark", "ours"):
        for footer in ("plaintext", "encrypted"):
            d = root / f"{writer}-encrypted-{footer}-footer"
            write_encrypted(df, d, writer, footer, {"k": 4000, "s": 2500})
            name, path = f"{writer} encrypted, {footer} footer", _only(d)
            if footer == "encrypted":
                files.append(CorpusFile(name, path, "s", "17", ALL_2, "encrypted footer (Parquet modular encryption)"))
                continue
            # The plaintext column s is read (its filter is plaintext too); all columns, or k, are refused.
            message = (
                "(Parquet modular encryption; this tool holds no keys); encrypted columns: k; plaintext "
                "columns, for --columns: s"
            )
            files += [
                CorpusFile(name, path, "k", "17", ALL_2, message),
                CorpusFile(f"{name}, its plaintext column", path, "s", "17", columns="s"),
            ]
    return files
