package io.bloomparquet.write

class WriteFormatSuite extends munit.FunSuite {

  test("the write format class is a Spark FileFormat with its own identity; the read format does not inherit it") {
    val fallback = new io.bloomparquet.spark.BloomParquetDataSource().fallbackFileFormat
    assert(!classOf[BloomParquetWriteFormat].isAssignableFrom(fallback))
    assert(classOf[org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat].isAssignableFrom(fallback))
    val cls = classOf[BloomParquetWriteFormat]
    assert(classOf[org.apache.spark.sql.execution.datasources.FileFormat].isAssignableFrom(cls))
    val f = cls.getDeclaredConstructor().newInstance()
    assertEquals(f.toString, "BloomParquet")
    assert(f != new org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat())
  }
}
