"""The Python checks of options (``bloomparquet._options``, from the JVM's
registry) agree with the JVM's on good and bad values, message for message."""

from __future__ import annotations

import warnings

import pytest

import bloomparquet as bp
from bloomparquet import _options

# (key, value): good and bad values of every kind, case and spacing, deprecated and unknown keys.
CASES = [
    ("bloom.enabled", "true"),
    ("BLOOM.ENABLED", "False"),
    ("bloom.enabled", "yes"),
    ("bloom.enabled", "1"),
    ("bloom.mode", " Task "),
    ("bloom.mode", "fast"),
    ("bloom.mode", ""),
    ("bloom.cache", "false"),
    ("bloom.cache", "0"),
    ("bloom.cacheMb", "0"),
    ("bloom.cachemb", "1_024"),
    ("bloom.cacheMb", "-1"),
    ("bloom.cacheMb", "1048577"),
    ("bloom.planningParallelism", "1024"),
    ("bloom.planningParallelism", "+7"),
    ("bloom.planningParallelism", "0"),
    ("bloom.planningParallelism", "2.0"),
    ("bloom.planningParallelism", "1__0"),
    ("bloom.planningParallelism", "１"),
    ("bloom.sparkPushdown", "NONE"),
    ("bloom.sparkPushdown", "some"),
    ("bloom.columns", "a, `b.c`"),
    ("bloom.columns", ""),
    ("bloom.fpp", "0.01"),
    ("bloom.fpp", "1e-05"),
    ("bloom.fpp", ".5"),
    ("bloom.fpp", "5."),
    ("bloom.fpp", "0"),
    ("bloom.fpp", "1"),
    ("bloom.fpp", "NaN"),
    ("bloom.fpp", "inf"),
    ("bloom.fpp", "0.5f"),
    ("bloom.fpp", "0x1p-3"),
    ("bloom.fpp", "1e-400"),
    ("bloom.fpp", " 0.2 "),
    ("bloom.fpp.Email", "0.1"),
    ("bloom.fpp.s.`a.b`", "2"),
    ("bloom.ndv.id", "1_000"),
    ("bloom.ndv.id", "0"),
    ("bloom.ndv.id", "9223372036854775808"),
    ("bloom.ndv.id", "many"),
    ("bloom.sizing", "Fold"),
    ("bloom.sizing", "guess"),
    ("bloom.fold.maxNdv", "100"),
    ("bloom.fold.maxndv", "-1"),
    ("bloom.overwrite", "true"),
    ("bloom.fp", "0.1"),
    ("bloom.colums", "a"),
    ("bloom.ndv", "1"),
    ("bloom.fpp.", "0.1"),
    ("Bloom.Nope", "x"),
    ("mergeSchema", "anything"),
]


def _python(key: str, value: str) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            _options.checked({key: value})
    except ValueError as e:
        return str(e)
    return None


@pytest.mark.spark
def test_python_and_jvm_agree(spark) -> None:
    from pyspark.errors.exceptions.captured import IllegalArgumentException

    jvm = spark._jvm  # type: ignore[attr-defined]
    for key, value in CASES:
        m = jvm.java.util.HashMap()
        m.put(key, value)
        try:
            jvm.io.bloomparquet.options.BloomReadOptions.parse(
                jvm.org.apache.spark.sql.util.CaseInsensitiveStringMap(m)
            )
            jvm_error = None
        except IllegalArgumentException as e:
            jvm_error = str(e).split("\n\nJVM stacktrace:")[0]
        assert _python(key, value) == jvm_error, (key, value)
    assert sum(_python(k, v) is None for k, v in CASES) > 15  # both sides saw good values too


@pytest.mark.spark
def test_process_wide_confs_are_applied_once_per_jvm(spark, tmp_path) -> None:
    spark.range(10).write.parquet(str(tmp_path / "t"))
    bp.read_bloom(spark, str(tmp_path / "t")).where("id = 3").collect()
    jvm = spark._jvm  # type: ignore[attr-defined]
    planning = jvm.io.bloomparquet.planning
    assert planning.PlanningPool.maxThreads() == int(spark.conf.get("spark.bloomparquet.planning.threads")) != 64
    assert planning.FileBloomIndexCache.budget() == int(spark.conf.get("spark.bloomparquet.cache.maxMb")) << 20
    assert spark.conf.get("spark.bloomparquet.cache.maxMb") != "256"


def test_unknown_keys_name_the_closest_and_list_the_known() -> None:
    with pytest.raises(
        ValueError, match=r"unknown option 'bloom.fp'; did you mean 'bloom.fpp'\? Known options: bloom.enabled"
    ):
        bp.write_bloom(None, "/nowhere", columns="id", **{"bloom.fp": "0.1"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"option 'bloom.mode' is a read option, not a retrofit option"):
        _options.check("bloom.mode", "plan", scopes=("retrofit",))


def test_helpers_check_their_arguments() -> None:
    assert bp.bloom_options("id, s.x", fpp={"id": 0.5}, ndv=1000) == {
        "bloom.columns": "id,s.x",
        "bloom.fpp.id": "0.5",
        "bloom.ndv.id": "1000",
        "bloom.ndv.s.x": "1000",
    }
    assert bp.bloom_options(["id"], fpp=1e-5) == {"bloom.columns": "id", "bloom.fpp": "1e-05"}
    with pytest.raises(
        ValueError, match=r"option 'bloom.fpp.id' = '1.5': expected a probability strictly between 0 and 1"
    ):
        bp.bloom_options("id", fpp={"id": 1.5})
    with pytest.raises(ValueError, match=r"option 'bloom.ndv.id' = '0': expected an integer >= 1"):
        bp.bloom_options("id", ndv=0)
    with pytest.raises(ValueError, match=r"option 'bloom.fpp' = 'nan'"):
        bp.retrofit(None, "/nowhere", "id", fpp=float("nan"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"option 'bloom.overwrite' = 'yes': expected true or false"):
        bp.retrofit(None, "/nowhere", "id", overwrite="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"option 'bloom.sparkPushdown' = 'some': expected one of safe, all, none"):
        bp.read_bloom(None, "/nowhere", **{"bloom.sparkPushdown": "some"})


def test_deprecated_key_warns_naming_the_new_key_and_conf() -> None:
    with pytest.warns(
        DeprecationWarning, match=r"'bloom.cacheMb' is deprecated, use 'bloom.cache'.*spark.bloomparquet.cache.maxMb"
    ):
        assert _options.checked({"bloom.cacheMb": 0}) == {"bloom.cacheMb": "0"}
    assert _options.checked({"bloom.cache": False}) == {"bloom.cache": "false"}
