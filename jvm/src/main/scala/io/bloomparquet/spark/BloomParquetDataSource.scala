package io.bloomparquet.spark

import io.bloomparquet.kernel.SbbfKernels
import org.apache.spark.sql.connector.catalog.Table
import org.apache.spark.sql.execution.datasources.FileFormat
import org.apache.spark.sql.execution.datasources.v2.FileDataSourceV2
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * The `bloomparquet` source: `spark.read.format("bloomparquet")`. Registered
 * through META-INF/services. Spark routes catalog tables, `bloomparquet.`path``
 * SQL and writes of file sources through [[fallbackFileFormat]] (SPARK-28396).
 */
class BloomParquetDataSource extends FileDataSourceV2 {

  override def fallbackFileFormat: Class[_ <: FileFormat] = classOf[BloomParquetFileFormat]

  override def shortName(): String = "bloomparquet"

  override def getTable(options: CaseInsensitiveStringMap): Table = table(options, None)

  override def getTable(options: CaseInsensitiveStringMap, schema: StructType): Table = table(options, Some(schema))

  private def table(options: CaseInsensitiveStringMap, schema: Option[StructType]): Table = {
    SbbfKernels.get() // picks the kernel now, so its background warm-up runs before the first query plans
    val paths = getPaths(options)
    new BloomParquetTable(getTableName(options, paths), sparkSession, getOptionsWithoutPaths(options), paths, schema,
      fallbackFileFormat)
  }
}
