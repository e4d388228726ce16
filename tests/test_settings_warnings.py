"""Settings that cannot take effect where they are given say so: an unknown ``spark.bloomparquet.*``
setting (a typo, or a feature this release lacks) is warned about once, naming the closest known
setting, the first time a read plans with it."""

from __future__ import annotations

from pathlib import Path

import pytest

import bloomparquet as bp

from .spark_conf import spark_conf

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def warnings(spark):
    logged = spark._jvm.io.bloomparquet.testing.LoggedWarnings
    logged.start()
    return logged


def test_an_unknown_setting_is_named_with_the_closest_known_one(spark, warnings, tmp_path: Path) -> None:
    spark.range(10).write.parquet(str(tmp_path / "t"))
    for key, closest in [
        ("spark.bloomparquet.icebreg.enabled", "spark.bloomparquet.iceberg.enabled"),
        ("spark.bloomparquet.planing.threads", "spark.bloomparquet.planning.threads"),
    ]:
        with spark_conf(spark, {key: "true"}):
            assert bp.read_bloom(spark, str(tmp_path / "t")).where("id = 3").count() == 1
        said = [w for w in warnings.all() if f"'{key}'" in w]
        assert len(said) == 1 and f"did you mean '{closest}'" in said[0] and "has no effect" in said[0], said
    # Known settings are never warned about.
    with spark_conf(spark, {"spark.bloomparquet.keySet.maxBytes": "1000"}):
        bp.read_bloom(spark, str(tmp_path / "t")).where("id = 3").count()
    assert not [w for w in warnings.all() if "'spark.bloomparquet.keySet.maxBytes' has no effect" in w]
