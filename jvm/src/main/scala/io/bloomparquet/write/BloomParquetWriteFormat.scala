package io.bloomparquet.write

import org.apache.hadoop.mapreduce.Job
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.datasources.OutputWriterFactory
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.types.StructType

/**
 * Spark's Parquet file format with right-sized split block bloom filters on
 * write, by class name: `df.write.format("io.bloomparquet.write.BloomParquetWriteFormat")`
 * (the `bloomparquet` format writes the same way). Files stay standard Parquet;
 * reading through this class is Spark's Parquet reader unchanged.
 */
class BloomParquetWriteFormat extends ParquetFileFormat {

  override def toString: String = "BloomParquet"
  override def hashCode(): Int = getClass.hashCode()
  override def equals(other: Any): Boolean = other.isInstanceOf[BloomParquetWriteFormat]

  override def prepareWrite(sparkSession: SparkSession, job: Job, options: Map[String, String],
      dataSchema: StructType): OutputWriterFactory =
    BloomWrite.prepare(sparkSession, job, options, dataSchema)(super.prepareWrite(sparkSession, job, options, dataSchema))
}
