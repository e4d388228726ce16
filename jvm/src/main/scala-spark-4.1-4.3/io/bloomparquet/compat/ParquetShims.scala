package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.column.{ColumnDescriptor, ParquetProperties}
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetOutputFormat, ParquetWriter}
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile

/** parquet-java calls whose shape differs between the parquet-java of Spark 4.0 (1.15) and later (1.16+). */
object ParquetShims {

  /** A reader of `columns` of `input` that reuses its already parsed `footer`. */
  def openColumns(input: HadoopInputFile, footer: ParquetMetadata, conf: Configuration,
      columns: Seq[ColumnDescriptor]): ParquetFileReader = {
    val reader = new ParquetFileReader(input, footer, HadoopReadOptions.builder(conf).build(), input.newStream())
    reader.setRequestedSchema(columns.asJava)
    reader
  }

  /** `parquet.block.row.count.limit`, which Spark's own writer honours. */
  def withRowGroupRowCountLimit[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B =
    builder.withRowGroupRowCountLimit(
      conf.getInt(ParquetOutputFormat.BLOCK_ROW_COUNT_LIMIT, ParquetProperties.DEFAULT_ROW_GROUP_ROW_COUNT_LIMIT))
}
