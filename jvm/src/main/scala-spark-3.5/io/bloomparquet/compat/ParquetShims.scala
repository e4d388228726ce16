package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.format.ColumnMetaData
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetWriter}
import org.apache.parquet.hadoop.metadata.{ColumnChunkMetaData, ParquetMetadata}
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.{GroupType, MessageType, Type}

/**
 * parquet-java calls whose shape differs in the parquet-java of Spark 3.5 (1.13): no
 * `bloom_filter_length` in its footer model (parquet-format 2.9), no reader over a parsed footer
 * with read options, no row-count limit per row group, no adaptive filter sizing.
 */
object ParquetShims {

  /** A reader of `columns` of `input` that reuses its already parsed `footer`. */
  def openColumns(input: HadoopInputFile, footer: ParquetMetadata, conf: Configuration,
      columns: Seq[ColumnDescriptor]): ParquetFileReader = {
    val reader = new ParquetFileReader(conf, input.getPath, footer)
    val schema = footer.getFileMetaData.getSchema
    reader.setRequestedSchema(new MessageType(schema.getName, project(schema, columns.map(_.getPath.toSeq)).asJava))
    reader
  }

  // The projection as a schema: the file schema cut down to the paths.
  private def project(group: GroupType, paths: Seq[Seq[String]]): Seq[Type] =
    group.getFields.asScala.toSeq.flatMap { field =>
      val below = paths.filter(_.headOption.contains(field.getName)).map(_.tail)
      if (below.isEmpty) None
      else if (field.isPrimitive) Some(field)
      else Some(field.asGroupType.withNewFields(project(field.asGroupType, below).asJava))
    }

  /** parquet-java 1.13 has no row-count limit per row group: nothing to apply. */
  def withRowGroupRowCountLimit[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder

  /** 1.13's footer model has no `bloom_filter_length`: readers find the header first. */
  def bloomFilterLength(chunk: ColumnChunkMetaData): Option[Int] = None

  def bloomFilterLength(md: ColumnMetaData): Option[Int] = None

  /** Files written here carry no `bloom_filter_length` (optional in the format; readers find the header). */
  def setBloomFilterLength(md: ColumnMetaData, length: Int): Unit = ()

  /** parquet-java 1.14's switch; 1.13 ignores it (an NDV-less filter takes `parquet.bloom.filter.max.bytes`). */
  val AdaptiveBloomFilterEnabled: String = "parquet.bloom.filter.adaptive.enabled"

  /** parquet-java 1.13 has none of 1.14's writer settings (filter size cap, adaptive sizing, statistics switches). */
  def withNewerSettings[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder

  /** parquet-java 1.14's key; 1.13 ignores it. */
  val BloomFilterCandidatesNumber: String = "parquet.bloom.filter.candidates.number"
}
