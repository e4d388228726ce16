package io.bloomparquet.compat

import java.util.Locale

import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.hadoop.{Footer, ParquetFileWriter}
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.schema.MessageType
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.datasources.parquet.{ParquetFileFormat, ParquetOptions, ParquetToSparkSchemaConverter, ParquetUtils}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{StructType, UserDefinedType}

/** Spark's own ways of getting a Parquet path's schema (the same calls on every supported minor). */
object ParquetSchemas {

  /** Spark's inference (`ParquetUtils.inferSchema`): the footers it picks, read in a Spark job. */
  def inferInJob(spark: SparkSession, options: Map[String, String], files: Seq[FileStatus]): Option[StructType] =
    ParquetUtils.inferSchema(spark, options, files)

  /**
   * The one file whose footer Spark's inference reads when that is one data file: without
   * `mergeSchema` and without summary files, the first of the listing by path. None when
   * Spark reads summary files or merges footers. On Spark 4.3 the listing's empty files and
   * archives are not Parquet footers to Spark: a read of one fails here, and Spark's job decides.
   */
  def soleFooterFile(options: Map[String, String], conf: SQLConf, files: Seq[FileStatus]): Option[FileStatus] =
    if (files.isEmpty || files.exists(f => Summaries(f.getPath.getName)) || new ParquetOptions(options, conf).mergeSchema ||
      options.keys.exists(_.toLowerCase(Locale.ROOT) == ArchivePathFilter)) None
    else Some(files.minBy(_.getPath.toString))

  /**
   * The Spark schema `footer` stores, read by Spark's `readSchemaFromFooter` under the session's
   * conf, or None when it stores none or one that does not parse (then Spark converts the Parquet
   * types), or one with a user-defined type (whose class Spark's job loads where it runs).
   */
  def stored(footer: ParquetMetadata, path: Path, conf: SQLConf): Option[StructType] =
    try {
      val schema = SQLConf.withExistingConf(conf)(ParquetFileFormat.readSchemaFromFooter(new Footer(path, footer), new StoredOnly(conf)))
      if (SparkCompat.anyType(schema)(_.isInstanceOf[UserDefinedType[_]])) None else Some(schema)
    } catch { case _: NoStoredSchema => None }

  private val Summaries = Set(ParquetFileWriter.PARQUET_METADATA_FILE, ParquetFileWriter.PARQUET_COMMON_METADATA_FILE)

  /** Spark 4.3's schema job sets a Hadoop key from this option (archives): left to Spark's job. */
  private val ArchivePathFilter = "archivepathfilter"

  /** `readSchemaFromFooter` converts the Parquet types only when no Spark schema is stored: refused here. */
  private final class StoredOnly(conf: SQLConf) extends ParquetToSparkSchemaConverter(conf) {
    override def convert(parquetSchema: MessageType): StructType = throw new NoStoredSchema
  }
  private final class NoStoredSchema extends RuntimeException("no stored Spark schema", null, false, false)
}
