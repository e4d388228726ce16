package io.bloomparquet.compat

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.hadoop.mapreduce.Job
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.{OutputWriterFactory, PartitionedFile}
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.{DataType, StructField, StructType}

/**
 * A Parquet format that is `delegate` (Delta Lake's, say) in everything Spark asks of a format,
 * except which filters its reader gets (`pushed`) and that its tasks read each split through
 * `reading`, given the delegate's reader. A Parquet
 * format itself, so Spark's scan treats it as the delegate (row conversion, vectorized batches).
 */
abstract class DelegatingParquetFormat(val delegate: ParquetFileFormat) extends ParquetFileFormat {

  /**
   * How a task reads a split (serialized with the job), given the filters the delegate's reader
   * gets and how the delegate reads one with a Hadoop configuration (`hadoopConf`, or another).
   */
  protected def reading(spark: SparkSession, hadoopConf: Configuration, pushed: Seq[Filter],
      reader: Configuration => PartitionedFile => Iterator[InternalRow]): PartitionedFile => Iterator[InternalRow]

  /** The data filters the delegate's reader gets (parquet-java's row-group filters inside tasks) of those Spark gives. */
  protected def pushed(spark: SparkSession, filters: Seq[Filter], dataSchema: StructType): Seq[Filter]

  override def buildReaderWithPartitionValues(spark: SparkSession, dataSchema: StructType, partitionSchema: StructType,
      requiredSchema: StructType, filters: Seq[Filter], options: Map[String, String],
      hadoopConf: Configuration): PartitionedFile => Iterator[InternalRow] = {
    val toReader = pushed(spark, filters, dataSchema)
    reading(spark, hadoopConf, toReader,
      conf =>
        delegate.buildReaderWithPartitionValues(spark, dataSchema, partitionSchema, requiredSchema, toReader,
          options, conf))
  }

  override def isSplitable(spark: SparkSession, options: Map[String, String], path: Path): Boolean =
    delegate.isSplitable(spark, options, path)
  override def supportBatch(spark: SparkSession, schema: StructType): Boolean = delegate.supportBatch(spark, schema)
  override def vectorTypes(requiredSchema: StructType, partitionSchema: StructType, sqlConf: SQLConf): Option[Seq[String]] =
    delegate.vectorTypes(requiredSchema, partitionSchema, sqlConf)
  override def inferSchema(spark: SparkSession, options: Map[String, String], files: Seq[FileStatus]): Option[StructType] =
    delegate.inferSchema(spark, options, files)
  override def prepareWrite(spark: SparkSession, job: Job, options: Map[String, String],
      dataSchema: StructType): OutputWriterFactory = delegate.prepareWrite(spark, job, options, dataSchema)
  override def supportDataType(dataType: DataType): Boolean = delegate.supportDataType(dataType)
  override def supportFieldName(name: String): Boolean = delegate.supportFieldName(name)
  override def metadataSchemaFields: Seq[StructField] = delegate.metadataSchemaFields
  override def fileConstantMetadataExtractors: Map[String, PartitionedFile => Any] =
    delegate.fileConstantMetadataExtractors
}
