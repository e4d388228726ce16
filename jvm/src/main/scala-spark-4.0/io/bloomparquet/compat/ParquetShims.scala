package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.format.ColumnMetaData
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetOutputFormat, ParquetWriter}
import org.apache.parquet.hadoop.metadata.{ColumnChunkMetaData, ParquetMetadata}
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.{GroupType, MessageType, Type}

/** parquet-java calls whose shape differs between the parquet-java of Spark 4.0 (1.15) and later (1.16+). */
object ParquetShims {

  /** A reader of `columns` of `input` that reuses its already parsed `footer`. */
  def openColumns(input: HadoopInputFile, footer: ParquetMetadata, conf: Configuration,
      columns: Seq[ColumnDescriptor]): ParquetFileReader = {
    val reader = new ParquetFileReader(conf, input.getPath, footer, HadoopReadOptions.builder(conf).build())
    val schema = footer.getFileMetaData.getSchema
    reader.setRequestedSchema(new MessageType(schema.getName, project(schema, columns.map(_.getPath.toSeq)).asJava))
    reader
  }

  // 1.15 takes the projection as a schema: the file schema cut down to the paths.
  private def project(group: GroupType, paths: Seq[Seq[String]]): Seq[Type] =
    group.getFields.asScala.toSeq.flatMap { field =>
      val below = paths.filter(_.headOption.contains(field.getName)).map(_.tail)
      if (below.isEmpty) None
      else if (field.isPrimitive) Some(field)
      else Some(field.asGroupType.withNewFields(project(field.asGroupType, below).asJava))
    }

  /** parquet-java 1.15 has no row-count limit per row group: nothing to apply. */
  def withRowGroupRowCountLimit[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder

  /** A chunk's `bloom_filter_length`, when its footer states one. */
  def bloomFilterLength(chunk: ColumnChunkMetaData): Option[Int] =
    Some(chunk.getBloomFilterLength).filter(_ >= 0)

  /** The thrift footer's `bloom_filter_length` of a chunk, when set. */
  def bloomFilterLength(md: ColumnMetaData): Option[Int] =
    if (md.isSetBloom_filter_length) Some(md.getBloom_filter_length) else None

  def setBloomFilterLength(md: ColumnMetaData, length: Int): Unit = md.setBloom_filter_length(length)

  /** parquet-java's switch for sizing NDV-less filters by the values a chunk holds. */
  val AdaptiveBloomFilterEnabled: String = ParquetOutputFormat.ADAPTIVE_BLOOM_FILTER_ENABLED

  /** The writer settings parquet-java 1.14+ adds (filter size cap, adaptive sizing, statistics switches). */
  def withNewerSettings[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = {
    var b = builder
      .withMaxBloomFilterBytes(ParquetOutputFormat.getBloomFilterMaxBytes(conf))
      .withAdaptiveBloomFilterEnabled(ParquetOutputFormat.getAdaptiveBloomFilterEnabled(conf))
      .withStatisticsEnabled(ParquetOutputFormat.getStatisticsEnabled(conf))
      .withSizeStatisticsEnabled(ParquetOutputFormat.getSizeStatisticsEnabled(conf))
    def perColumn(key: String) = ParquetConf.perColumn(conf, key)
    perColumn(ParquetOutputFormat.BLOOM_FILTER_CANDIDATES_NUMBER).foreach { case (c, v) =>
      b = b.withBloomFilterCandidateNumber(c, v.toInt)
    }
    perColumn(ParquetOutputFormat.STATISTICS_ENABLED).foreach { case (c, v) => b = b.withStatisticsEnabled(c, v.toBoolean) }
    perColumn(ParquetOutputFormat.SIZE_STATISTICS_ENABLED).foreach { case (c, v) =>
      b = b.withSizeStatisticsEnabled(c, v.toBoolean)
    }
    b
  }

  /** parquet-java's count of candidate filter sizes for adaptive sizing. */
  val BloomFilterCandidatesNumber: String = ParquetOutputFormat.BLOOM_FILTER_CANDIDATES_NUMBER
}
