"""bin/test's JVM flags (``stages.TEST_JVM_FLAGS``) reach the JVMs the tests start: the driver Spark
launches (through ``SPARK_SUBMIT_OPTS``) and, on local-cluster, the executors (their Java options).
Under a plain ``pytest`` no flags are given and the JVMs run with their defaults."""

from __future__ import annotations

import os

import pytest

from .conftest import MASTER

pytestmark = [pytest.mark.spark, pytest.mark.cluster]


def test_the_jvms_run_with_the_flags_bin_test_gives(spark) -> None:
    given = set(os.environ.get("SPARK_SUBMIT_OPTS", "").split())
    driver = set(spark._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments())
    assert given <= driver, (given, driver)
    if MASTER.startswith("local-cluster"):
        executors = set(spark.sparkContext.getConf().get("spark.executor.extraJavaOptions", "").split())
        assert given <= executors, (given, executors)
