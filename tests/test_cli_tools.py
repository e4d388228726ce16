"""``bloomparquet inspect|probe|verify|advise`` on files written by pyarrow: what
they report, their JSON, their exit codes, and that they never load Spark."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bloomparquet.cli import main
from bloomparquet.reference import xxh64_plain
from bloomparquet.tools.sizing import num_bytes

from .report_schema import assert_conforms, report_schema

ROWS, RG = 20_000, 5_000


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """4 row groups: id and s (shuffled, distinct, with filters), f (float, filter), plain (no filter)."""
    ids = np.random.default_rng(11).permutation(ROWS) * 2  # even ids stored, odd ones absent
    table = pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "s": pa.array([f"user-{i}" for i in ids]),
            "f": pa.array(ids / 4.0 - 100.0),
            "plain": pa.array(ids % 97, pa.int32()),
        }
    )
    path = tmp_path_factory.mktemp("cli") / "data.parquet"
    opts = {c: {"ndv": RG, "fpp": 0.01} for c in ("id", "s", "f")}
    pq.write_table(table, path, row_group_size=RG, bloom_filter_options=opts)
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code, out, _ = _run(capsys, *argv, "--json")
    return code, json.loads(out)


def _row_groups_holding(path: Path, column: str, value: object) -> set[int]:
    f = pq.ParquetFile(path)
    return {
        rg for rg in range(f.metadata.num_row_groups) if value in f.read_row_group(rg, [column]).column(0).to_pylist()
    }


def test_inspect_reports_filters_estimates_and_statistics(data: Path, capsys) -> None:
    code, report = _json(capsys, "inspect", str(data))
    assert code == 0 and report["command"] == "inspect" and report["version"] == 1
    (file,) = report["files"]
    assert file["num_rows"] == ROWS and len(file["row_groups"]) == ROWS // RG
    meta = pq.ParquetFile(data).metadata
    for g in file["row_groups"]:
        chunks = {c["column"]: c for c in g["columns"]}
        assert set(chunks) == {"id", "s", "f", "plain"}
        assert not chunks["plain"]["has_filter"] and chunks["plain"]["filter_bytes"] is None
        for name in ("id", "s", "f"):
            c = chunks[name]
            col = meta.row_group(g["index"]).column(list(chunks).index(name))
            assert c["has_filter"] and c["has_filter_length"] and c["filter_offset"] == col.bloom_filter_offset
            assert c["filter_length"] == c["header_bytes"] + c["filter_bytes"] == col.bloom_filter_length
            assert c["problems"] == []
            assert abs(c["estimated_ndv"] - RG) < 0.05 * RG, c  # all RG values are distinct
            assert 0.001 < c["fpp"] < 0.02, c  # written for 1 %
            assert c["statistics"]["min"] == col.statistics.min and c["statistics"]["max"] == col.statistics.max
    totals = {t["column"]: t for t in report["columns"]}
    assert totals["id"]["chunks_with_filter"] == 4 and totals["plain"]["chunks_with_filter"] == 0
    assert abs(totals["s"]["estimated_ndv"] - ROWS) < 0.05 * ROWS
    code, text, _ = _run(capsys, "inspect", str(data))
    assert code == 0 and "totals" in text and "user-" in text
    assert totals["id"]["files"] == totals["id"]["files_with_filter"] == 1 and totals["plain"]["files_with_filter"] == 0


def test_inspect_summarises_many_files_and_details_on_request(data: Path, tmp_path: Path, capsys) -> None:
    """More than one file: the totals per column alone by default; ``--detail`` every row group."""
    lake = tmp_path / "lake"
    lake.mkdir()
    for name in ("a.parquet", "b.parquet"):
        (lake / name).write_bytes(data.read_bytes())
    pq.write_table(pa.table({"id": [1, 2]}), lake / "c.parquet")  # a file without filters
    code, report = _json(capsys, "inspect", str(lake))
    totals = {t["column"]: t for t in report["columns"]}
    assert code == 0 and totals["id"]["files"] == 3 and totals["id"]["files_with_filter"] == 2, totals
    assert totals["s"]["files"] == totals["s"]["files_with_filter"] == 2, totals
    code, summary, _ = _run(capsys, "inspect", str(lake))
    assert code == 0 and summary.startswith("3 files, 9 row groups") and "per column" in summary, summary
    assert "2/3" in summary and "a.parquet" not in summary, summary
    code, detail, _ = _run(capsys, "inspect", str(lake), "--detail")
    assert code == 0 and "a.parquet" in detail and "c.parquet" in detail and "totals" in detail
    code, one, _ = _run(capsys, "inspect", str(data), "--summary")
    assert code == 0 and one.startswith("1 file, ") and "per column" in one


def test_estimators_match_the_filter() -> None:
    from bloomparquet.reference import SplitBlockBloomFilter
    from bloomparquet.tools import estimate

    rng = np.random.default_rng(5)
    for n, size in ((100, 32 * 8), (3000, 4096), (50_000, 32 * 1024)):
        f = SplitBlockBloomFilter(size)
        f.insert_hashes(rng.integers(0, 2**64, size=n, dtype=np.uint64))
        assert abs(estimate.estimated_ndv(f) - n) < 0.1 * n + 5, (n, estimate.estimated_ndv(f))
        probes = rng.integers(0, 2**64, size=200_000, dtype=np.uint64)
        measured = f.check_hashes(probes).mean()
        assert abs(estimate.fpp(f) - measured) < 0.1 * measured + 0.002, (n, estimate.fpp(f), measured)
    assert estimate.estimated_ndv(SplitBlockBloomFilter.from_bytes(b"\xff" * 64)) is None


def test_probe_excludes_absent_values_and_keeps_stored_ones(data: Path, capsys) -> None:
    absent = [str(2 * i + 1) for i in range(200)]
    code, report = _json(capsys, "probe", str(data), "id", "4242", *absent)
    assert code == 0 and report["command"] == "probe"
    holding = _row_groups_holding(data, "id", 4242)
    assert len(holding) == 1
    excluded_absent = 0
    for g in report["files"][0]["row_groups"]:
        results = [v["result"] for v in g["values"]]
        if g["index"] in holding:
            assert results[0] == "may-contain" and g["result"] == "may-contain"
        excluded_absent += results[1:].count("excluded")
    assert excluded_absent > 0.95 * 200 * 4  # ~1 % false positives
    s = report["summary"]
    assert s["row_groups"] == 4 and s["excluded"] + s["may_contain"] == 4 and s["no_filter"] == 0


def test_probe_string_and_no_filter(data: Path, capsys) -> None:
    _, report = _json(capsys, "probe", str(data), "s", "user-4242", "nobody")
    assert report["files"][0]["parsed"] == ["user-4242", "nobody"]  # as written, not as hex
    holding = _row_groups_holding(data, "s", "user-4242")
    for g in report["files"][0]["row_groups"]:
        assert g["values"][0]["result"] == ("may-contain" if g["index"] in holding else g["values"][0]["result"])
    assert sum(g["values"][1]["result"] == "excluded" for g in report["files"][0]["row_groups"]) >= 3
    _, report = _json(capsys, "probe", str(data), "plain", "5")
    assert {g["result"] for g in report["files"][0]["row_groups"]} == {"no filter"}
    assert report["summary"]["no_filter"] == 4


def test_probe_never_excludes_nan_or_zero(data: Path, capsys) -> None:
    _, report = _json(capsys, "probe", str(data), "f", "nan", "0", "-0.0", "123456.75")
    for g in report["files"][0]["row_groups"]:
        assert [v["result"] for v in g["values"][:3]] == ["may-contain"] * 3
    assert sum(g["values"][3]["result"] == "excluded" for g in report["files"][0]["row_groups"]) >= 3
    assert report["files"][0]["parsed"][:3] == [None, None, None]


def _corrupt(src: Path, dst: Path, edit) -> None:
    data = bytearray(src.read_bytes())
    edit(data)
    dst.write_bytes(bytes(data))


def test_verify_passes_good_files(data: Path, capsys) -> None:
    code, report = _json(capsys, "verify", "--rebuild", str(data))
    assert code == 0 and report["ok"] and report["summary"] == {"files": 1, "filters": 12, "findings": 0}
    code, text, _ = _run(capsys, "verify", str(data))
    assert code == 0 and "0 findings" in text


def test_verify_rebuild_finds_a_zeroed_block(data: Path, tmp_path: Path, capsys) -> None:
    _, report = _json(capsys, "inspect", str(data), "--columns", "id")
    chunk = report["files"][0]["row_groups"][0]["columns"][0]
    value = pq.ParquetFile(data).read_row_group(0, ["id"]).column(0)[17].as_py()
    h = int(xxh64_plain(np.array([value], dtype=np.int64), "INT64")[0])
    blocks = chunk["filter_bytes"] // 32
    block = ((h >> 32) * blocks) >> 32
    start = chunk["filter_offset"] + chunk["header_bytes"] + 32 * block
    bad = tmp_path / "bad.parquet"
    _corrupt(data, bad, lambda b: b.__setitem__(slice(start, start + 32), bytes(32)))
    code, report = _json(capsys, "verify", str(bad))  # still well-formed: only --rebuild sees it
    assert code == 0 and report["ok"]
    code, report = _json(capsys, "verify", "--rebuild", str(bad))
    assert code == 1 and not report["ok"]
    (finding,) = report["files"][0]["findings"]
    assert finding["kind"] == "missing-values" and finding["column"] == "id" and finding["row_group"] == 0
    assert finding["missing"] >= 1 and all(isinstance(v, int) and v % 2 == 0 for v in finding["examples"])
    # probe now wrongly excludes the stored value: exactly what verify warns about
    _, probed = _json(capsys, "probe", str(bad), "id", str(value))
    assert probed["files"][0]["row_groups"][0]["result"] == "excluded"


def test_verify_finds_a_malformed_header(data: Path, tmp_path: Path, capsys) -> None:
    _, report = _json(capsys, "inspect", str(data), "--columns", "s")
    chunk = report["files"][0]["row_groups"][2]["columns"][0]
    off = chunk["filter_offset"]
    bad = tmp_path / "bad.parquet"
    _corrupt(data, bad, lambda b: b.__setitem__(slice(off, off + 4), b"\x19\x7f\x7f\x7f"))
    code, text, _ = _run(capsys, "verify", str(bad))
    assert code == 1 and "malformed" in text
    code, report = _json(capsys, "verify", str(bad))
    assert code == 1
    (finding,) = report["files"][0]["findings"]
    assert (finding["row_group"], finding["column"], finding["kind"]) == (2, "s", "malformed")
    _, probed = _json(capsys, "probe", str(bad), "s", "nobody")
    assert probed["files"][0]["row_groups"][2]["result"] == "unreadable filter"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def test_verify_finds_a_wrong_length(tmp_path: Path, capsys) -> None:
    src = tmp_path / "big.parquet"
    pq.write_table(
        pa.table({"k": pa.array(np.arange(20_000), pa.int64())}),
        src,
        bloom_filter_options={"k": {"ndv": 10_000, "fpp": 0.01}},
    )
    _, report = _json(capsys, "inspect", str(src))
    chunk = report["files"][0]["row_groups"][0]["columns"][0]
    off, nb = chunk["filter_offset"], chunk["filter_bytes"]
    old, new = _varint(nb << 1), _varint((nb - 32) << 1)  # numBytes: header field 1, zigzag i32
    assert len(old) == len(new) and src.read_bytes()[off : off + 1 + len(old)] == b"\x15" + old
    bad = tmp_path / "bad.parquet"
    _corrupt(src, bad, lambda b: b.__setitem__(slice(off + 1, off + 1 + len(new)), new))
    code, report = _json(capsys, "verify", str(bad))
    assert code == 1
    (finding,) = report["files"][0]["findings"]
    assert finding["kind"] == "malformed" and "bloom_filter_length" in finding["message"], finding
    assert _json(capsys, "verify", str(src))[0] == 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["inspect", "{d}/missing.parquet"], "no such file"),
        (["inspect", "{d}/text.parquet"], "not a Parquet file"),
        (["verify", "{d}/nothing-*.parquet"], "no file matches"),
        (["probe", "{data}", "nope", "1"], "'nope' is not a column"),
        (["probe", "{data}", "id", "one"], "cannot read 'one'"),
        (["probe", "{data}", "id", "1.5"], "cannot read '1.5'"),
        (["inspect", "{data}", "--columns", "id,zz"], "'zz' is not a column"),
        (["advise", "{data}", "--fpp", "2"], "--fpp 2.0: expected a false-positive probability"),
        (["retrofit", "{data}", "--columns", "id", "--fpp", "0"], "--fpp 0.0: expected a false-positive probability"),
        (["digest", "{data}", "--columns", "id", "--fpp", "1"], "--fpp 1.0: expected a false-positive probability"),
        (["digest", "{data}", "--full"], "--fpp and --full apply to a build: give --columns too"),
    ],
)
def test_bad_input_exits_2_with_one_line(data: Path, tmp_path: Path, capsys, argv, message) -> None:
    (tmp_path / "text.parquet").write_text("hello, not parquet at all")
    argv = [a.format(d=tmp_path, data=data) for a in argv]
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("bloomparquet: ") and err.count("\n") == 1 and message in err, err


def test_module_entry_point_exit_codes_and_no_spark(data: Path, tmp_path: Path) -> None:
    """``python -m bloomparquet``: exit 2 without a traceback; the tools never import pyspark."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python")}
    bad = subprocess.run(
        [sys.executable, "-m", "bloomparquet", "probe", str(data), "id", "x"], capture_output=True, text=True, env=env
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.startswith("bloomparquet: ")
    script = (
        "import sys, contextlib, io\n"
        "from bloomparquet.cli import main\n"
        f"p = {str(data)!r}\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    codes = [main(['inspect', p]), main(['probe', p, 'id', '2']), main(['verify', '--rebuild', p]),"
        " main(['advise', p])]\n"
        "print(codes, sorted(m for m in sys.modules if m.startswith(('pyspark', 'py4j'))))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert run.stdout.strip() == "[0, 0, 0, 0] []", run.stdout + run.stderr


def test_paths_recurse_skip_hidden_and_glob(data: Path, tmp_path: Path, capsys) -> None:
    root = tmp_path / "table"
    for sub in ("p=1", "p=2", "_temporary", ".hidden"):
        (root / sub).mkdir(parents=True)
        (root / sub / "part-0.parquet").write_bytes(data.read_bytes())
    (root / "_SUCCESS").write_text("")
    (root / "p=1" / ".part-0.parquet.crc").write_text("x")
    _, report = _json(capsys, "inspect", str(root), "--columns", "id")
    assert [Path(f["path"]).parent.name for f in report["files"]] == ["p=1", "p=2"]
    _, report = _json(capsys, "probe", str(root / "p=*" / "*.parquet"), "id", "1")
    assert len(report["files"]) == 2 and report["summary"]["row_groups"] == 8


def test_advise_recommends_unsorted_high_cardinality_not_sorted(tmp_path: Path, capsys) -> None:
    n = 80_000
    rng = np.random.default_rng(3)
    table = pa.table(
        {
            "sorted_id": pa.array(np.arange(n), pa.int64()),
            "user": pa.array([f"u{i:08d}" for i in rng.permutation(n)]),
            "country": pa.array([f"c{i}" for i in rng.integers(0, 20, n)]),
            "flag": pa.array(rng.integers(0, 2, n) == 1),
        }
    )
    d = tmp_path / "t"
    d.mkdir()
    # Dictionaries outgrow 4 KB for `user` (plain pages follow), not for `country`.
    for name, part in (("a", table.slice(0, n // 2)), ("b", table.slice(n // 2))):
        pq.write_table(part, d / f"{name}.parquet", row_group_size=8_000, dictionary_pagesize_limit=4_096)
    code, report = _json(capsys, "advise", str(d), "--sample", "6")
    assert code == 0 and report["row_groups"] == 10 and report["sampled_row_groups"] == 6
    cols = {c["column"]: c for c in report["columns"]}
    assert set(cols) == {"sorted_id", "user", "country"}  # boolean has no filter hash
    assert cols["user"]["recommend"] and not cols["user"]["stats_can_prune"]
    assert cols["user"]["ndv_per_row_group"]["mean"] == 8_000 and cols["user"]["recurrence"] == pytest.approx(1 / 10)
    assert not cols["sorted_id"]["recommend"] and cols["sorted_id"]["stats_can_prune"]
    assert cols["sorted_id"]["stats_prune_share"] == pytest.approx(0.9)
    assert not cols["country"]["recommend"] and cols["country"]["recurrence"] == pytest.approx(1.0)
    p = cols["user"]["fpp"]
    assert cols["user"]["expected_pruned"]["absent_point"] == pytest.approx(1 - p)
    assert cols["user"]["expected_pruned"]["absent_in_100"] == pytest.approx((1 - p) ** 100)
    assert cols["user"]["filter_bytes_per_row_group"] == num_bytes(8_000, p)
    assert report["retrofit"] == [f"bloomparquet retrofit {d} --columns user --fpp {p:g}"]
    code, report = _json(capsys, "advise", str(d), "--columns", "sorted_id,user", "--fpp", "0.05")
    assert [c["fpp"] for c in report["columns"]] == [0.05, 0.05]
    assert report["retrofit"] == [f"bloomparquet retrofit {d} --columns user --fpp 0.05"]
    code, text, _ = _run(capsys, "advise", str(d))
    assert code == 0 and "min/max statistics already prune" in text and "bloomparquet retrofit" in text


def test_advise_skips_columns_that_have_filters(data: Path, capsys) -> None:
    code, report = _json(capsys, "advise", str(data))
    cols = {c["column"]: c for c in report["columns"]}
    assert code == 0 and cols["id"]["with_filter"] == 4 and not cols["id"]["recommend"]
    assert "already has a filter" in cols["id"]["reason"]
    assert cols["plain"]["recurrence"] == pytest.approx(1.0) and not cols["plain"]["recommend"]
    assert report["retrofit"] == []


def test_progress_on_a_terminal_for_many_files(data: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    import io

    for i in range(21):
        (tmp_path / f"part-{i:02d}.parquet").write_bytes(data.read_bytes())

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["verify", str(tmp_path)]) == 0
    assert "verify 21/21" in err.getvalue() and "verify 1/21" in err.getvalue()
    assert "21 files, 252 filters checked" in capsys.readouterr().out
    err2 = Tty()
    monkeypatch.setattr(sys, "stderr", err2)
    main(["verify", str(data)])  # one file: no progress
    assert err2.getvalue() == ""


def test_nested_struct_and_list_columns(tmp_path: Path, capsys) -> None:
    ids = np.random.default_rng(1).permutation(4000)
    table = pa.table(
        {
            "s": pa.StructArray.from_arrays(
                [pa.array(ids.astype(np.int64)), pa.array([f"k{i}" for i in ids])], names=["x", "y"]
            ),
            "l": pa.array([[int(i), int(i) + 1] for i in ids], pa.list_(pa.int64())),
        }
    )
    path = tmp_path / "nested.parquet"
    opts = {
        "s.x": {"ndv": 1000, "fpp": 0.01},
        "s.y": {"ndv": 1000, "fpp": 0.01},
        "l.list.element": {"ndv": 2000, "fpp": 0.01},
    }
    pq.write_table(table, path, row_group_size=1000, bloom_filter_options=opts)
    code, report = _json(capsys, "verify", "--rebuild", str(path))
    assert code == 0 and report["summary"]["filters"] == 12 and report["files"][0]["notes"] == []
    for column, value in (("s.y", f"k{ids[5]}"), ("l.list.element", str(ids[5] + 1))):
        _, probed = _json(capsys, "probe", str(path), column, value)
        results = [g["result"] for g in probed["files"][0]["row_groups"]]
        assert results[0] == "may-contain" and results.count("excluded") >= 2, (column, results)


def test_advise_tells_dictionary_only_chunks_from_plain_fallback(tmp_path: Path, capsys) -> None:
    """A dictionary small enough for its page limit covers every page; a high-cardinality
    column whose dictionary outgrows the limit falls back to plain pages (the reason says so)."""
    rng = np.random.default_rng(3)
    n = 40_000
    table = pa.table(
        {"few": pa.array(rng.integers(0, 50, n), pa.int64()), "many": pa.array(rng.permutation(n) * 7, pa.int64())}
    )
    path = tmp_path / "dict.parquet"
    pq.write_table(table, path, row_group_size=10_000, dictionary_pagesize_limit=4_096)
    code, report = _json(capsys, "advise", str(path), "--columns", "few,many")
    assert code == 0
    share = {c["column"]: c["dictionary_only_share"] for c in report["columns"]}
    assert share == {"few": 1.0, "many": 0.0}
    many = next(c for c in report["columns"] if c["column"] == "many")
    assert many["recommend"] and "fell back to plain pages in 100% of row groups" in many["reason"]
    pq.write_table(table, path, row_group_size=10_000, use_dictionary=False)
    _, report = _json(capsys, "advise", str(path), "--columns", "few")
    assert report["columns"][0]["dictionary_only_share"] == 0.0


def test_advise_recommends_no_filter_where_every_page_uses_its_dictionary(tmp_path: Path, capsys) -> None:
    """Random doubles, distinct, each row group's dictionary within its page limit: planning prunes by
    the dictionaries exactly, so a filter would only cost bytes."""
    rng = np.random.default_rng(5)
    path = tmp_path / "doubles.parquet"
    pq.write_table(pa.table({"v": pa.array(rng.random(40_000))}), path, row_group_size=10_000)
    code, report = _json(capsys, "advise", str(path))
    (v,) = report["columns"]
    assert code == 0 and v["dictionary_only_share"] == 1.0 and not v["recommend"], v
    assert "dictionary-encoded" in v["reason"] and report["retrofit"] == [], v
    _, report = _json(capsys, "advise", str(path), "--columns", "v")  # the user asks for lookups on it
    assert report["columns"][0]["recommend"], report["columns"][0]


def test_version_and_help_read_as_plain_text(capsys) -> None:
    """``--version`` names the release; ``--help`` shows no reStructuredText markup."""
    import bloomparquet

    for argv, stream in [(["--version"], "out"), (["--help"], "out")]:
        assert main(argv) == 0
        text = getattr(capsys.readouterr(), stream)
        if argv == ["--version"]:
            assert text.strip() == f"bloomparquet {bloomparquet.__version__}", text
        else:
            assert "``" not in text and "python -m bloomparquet" in text, text


def test_counts_read_in_the_singular_for_one(data: Path, capsys) -> None:
    """ "1 file", "1 finding": a noun takes its plural only for other counts."""
    code, out, _ = _run(capsys, "verify", str(data))  # one file
    assert code == 0 and out.startswith("1 file, ") and "0 findings" in out, out


def test_documented_verify_kinds_are_the_emitted_ones() -> None:
    """Every finding ``kind`` verify can emit is in the user guide's JSON reference, and no other."""
    import re

    import bloomparquet.tools.verify as verify

    emitted = set(re.findall(r'"kind": "([a-z-]+)"', Path(verify.__file__).read_text()))
    guide = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    line = guide[guide.index("* `verify`: `{command") : guide.index("* `advise`: `{command")]
    documented = set(re.findall(r"`([a-z]+(?:-[a-z]+)?)` \(", line))
    assert emitted == documented == {"malformed", "impossible", "missing-values"}, (emitted, documented)


def test_retrofit_dry_run_lists_what_would_be_rewritten_and_writes_nothing(data: Path, capsys) -> None:
    before = data.read_bytes()
    code, report = _json(capsys, "retrofit", str(data), "--columns", "plain", "--dry-run")
    (f,) = report["files"]
    assert code == 0 and report["dry_run"] and f["status"] == "would retrofit" and f["chunks"] == 4, report
    assert report["summary"]["bytes_rewritten"] == data.stat().st_size
    md = pq.ParquetFile(data).metadata
    plain = [md.row_group(g).column(md.schema.names.index("plain")) for g in range(md.num_row_groups)]
    assert (f["values"], f["column_bytes"]) == (
        sum(c.num_values for c in plain),
        sum(c.total_uncompressed_size for c in plain),
    )
    estimate = report["summary"]["estimated_core_seconds"]
    assert estimate == report["summary"]["estimated_largest_file_seconds"] > 0, report["summary"]
    _, report = _json(capsys, "retrofit", str(data), "--columns", "id", "--dry-run")  # id has filters
    assert report["files"][0]["status"] == "unchanged" and report["summary"]["files_rewritten"] == 0
    assert report["files"][0]["values"] == 0 and report["summary"]["estimated_core_seconds"] < estimate
    _, report = _json(capsys, "retrofit", str(data), "--columns", "id,plain", "--dry-run", "--overwrite")
    assert report["files"][0]["chunks"] == 8 and report["summary"]["estimated_core_seconds"] > estimate
    code, out, _ = _run(capsys, "retrofit", str(data), "--columns", "plain", "--dry-run")
    assert code == 0 and "1 file of 1 would be rewritten" in out and "nothing was written" in out, out
    assert f"estimated time: {estimate:,.1f} s of one core's work" in out, out
    assert data.read_bytes() == before


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--master", "local[1]", "--remote", "sc://localhost:1"], "--master and --remote: give one"),
        (["--delta", "--dry-run"], "--dry-run reads Parquet files, not a table format's metadata"),
        (["--iceberg", "--dry-run"], "--dry-run reads Parquet files, not a table format's metadata"),
        (["--delta", "--iceberg"], "--delta and --iceberg: give one table format"),
        (["--conf", "a=b"], "--conf sets up the local session --delta or --iceberg starts"),
    ],
)
def test_retrofit_refuses_combinations_it_cannot_run(data: Path, capsys, extra: list[str], message: str) -> None:
    code, out, err = _run(capsys, "retrofit", str(data), "--columns", "plain", *extra)
    assert code == 2 and out == "" and message in err, err


def test_every_json_report_is_the_documented_schema(data: Path, tmp_path: Path, capsys) -> None:
    """What ``--json`` emits is what python/bloomparquet/report.schema.json (shipped with the package,
    and docs/cli.md) documents: for every JVM-free command, on a file with filters and a broken one."""
    schema = report_schema()
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"id": pa.array([1, 2, 3], pa.int64())}), bad, bloom_filter_options={"id": {"ndv": 3}})
    runs = [
        ("inspect", str(data)),
        ("inspect", str(data), "--summary"),
        ("probe", str(data), "s", "user-4242", "nobody"),
        ("probe", str(data), "plain", "5"),
        ("verify", str(data)),
        ("verify", "--rebuild", str(data), str(bad)),
        ("advise", str(data)),
        ("retrofit", str(data), "--columns", "plain", "--dry-run"),
        ("jar",),
    ]
    for argv in runs:
        code, out, err = _run(capsys, *argv, "--json")
        assert code in (0, 1), (argv, err)
        assert_conforms(json.loads(out), schema, argv)
    # The documented finding kinds are the schema's.
    kinds = next(s for s in schema["oneOf"] if s["title"] == "verify")
    finding = kinds["properties"]["files"]["items"]["properties"]["findings"]["items"]["properties"]["kind"]["enum"]
    guide = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    assert all(f"`{k}`" in guide for k in finding), finding
