package io.bloomparquet.compat

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetWriter}
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile

/** parquet-java calls whose shape differs between the parquet-java of Spark 4.0 (1.15) and later (1.16+). */
object ParquetShims {

  /** A reader of `columns` of `input` that reuses its already parsed `footer`. */
  def openColumns(input: HadoopInputFile, footer: ParquetMetadata, conf: Configuration,
      columns: Seq[ColumnDescriptor]): ParquetFileReader = {
    val reader = new ParquetFileReader(conf, input.getPath, footer, HadoopReadOptions.builder(conf).build())
    reader.setRequestedSchema(ParquetProjection.of(footer.getFileMetaData.getSchema, columns))
    reader
  }

  /** parquet-java 1.15 has no row-count limit per row group: nothing to apply. */
  def withRowGroupRowCountLimit[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder
}
