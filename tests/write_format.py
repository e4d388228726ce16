"""The one place tests name the bloomparquet write format (switch to "bloomparquet"
once the DataSource V2 falls back to it)."""

WRITE_FORMAT = "io.bloomparquet.write.BloomParquetWriteFormat"
