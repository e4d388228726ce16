package io.bloomparquet.compat

import scala.annotation.nowarn

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetWriter}
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile

/** parquet-java calls whose shape differs in the parquet-java of Spark 3.5 (1.13). */
object ParquetShims {

  /** A reader of `columns` of `input` that reuses its already parsed `footer`. */
  @nowarn("cat=deprecation") // 1.13's one constructor over a parsed footer (no read options)
  def openColumns(input: HadoopInputFile, footer: ParquetMetadata, conf: Configuration,
      columns: Seq[ColumnDescriptor]): ParquetFileReader = {
    val reader = new ParquetFileReader(conf, input.getPath, footer)
    reader.setRequestedSchema(ParquetProjection.of(footer.getFileMetaData.getSchema, columns))
    reader
  }

  /** parquet-java 1.13 has no row-count limit per row group: nothing to apply. */
  def withRowGroupRowCountLimit[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder
}
