"""The one place tests name the bloomparquet write format (switch to "bloomparquet"
once the DataSource V2 falls back to it)."""

WRITE_FORMAT = "io.bloomparquet.write.BloomParquetWriteFormat"


def filter_bytes(spark, ndv: int, fpp: float) -> int:  # noqa: ANN001
    """The writer's filter size for ``ndv`` distinct values at ``fpp`` (JVM ``FilterSizing``)."""
    return int(spark._jvm.io.bloomparquet.write.FilterSizing.numBytes(int(ndv), float(fpp)))
