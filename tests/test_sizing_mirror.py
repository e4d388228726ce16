"""Filter sizes are computed once, by the JVM's FilterSizing (the writer's and retrofit's); the
JVM-free CLI's copy (``bloomparquet.tools.sizing``, behind ``advise``) must give the same bytes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bloomparquet._session import jvm
from bloomparquet.tools.sizing import num_bytes

pytestmark = pytest.mark.spark

NDVS = [0, 1, 2, 31, 1000, 8_000, 26_214, 1_000_000, 10**8, 10**12]
FPPS = [1e-6, 0.0001, 0.001, 0.01, 0.02, 0.05, 0.1, 0.3, 0.5, 0.9]


def test_grid_matches_the_jvm(spark) -> None:
    sizing = jvm(spark).io.bloomparquet.write.FilterSizing
    differ = [(n, p) for n in NDVS for p in FPPS if num_bytes(n, p) != int(sizing.numBytes(n, p))]
    assert not differ, differ


@given(ndv=st.integers(0, 10**9), fpp=st.floats(1e-7, 0.99))
def test_any_size_matches_the_jvm(spark, ndv: int, fpp: float) -> None:
    assert num_bytes(ndv, fpp) == int(jvm(spark).io.bloomparquet.write.FilterSizing.numBytes(ndv, fpp)), (ndv, fpp)
