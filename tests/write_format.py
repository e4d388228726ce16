"""The one place tests name the bloomparquet write format."""

WRITE_FORMAT = "bloomparquet"


def filter_bytes(spark, ndv: int, fpp: float) -> int:
    """The writer's filter size for ``ndv`` distinct values at ``fpp`` (JVM ``FilterSizing``)."""
    return int(spark._jvm.io.bloomparquet.write.FilterSizing.numBytes(int(ndv), float(fpp)))
