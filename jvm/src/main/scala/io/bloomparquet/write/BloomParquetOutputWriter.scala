package io.bloomparquet.write

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.{BloomColumn, ParquetCrypto}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.hadoop.mapreduce.TaskAttemptContext
import org.apache.parquet.hadoop.api.WriteSupport
import org.apache.parquet.hadoop.codec.CodecConfig
import org.apache.parquet.hadoop.util.HadoopOutputFile
import org.apache.parquet.hadoop.{ParquetFileWriter, ParquetWriter}
import org.apache.parquet.io.OutputFile
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.OutputWriter

/**
 * Writes one Parquet file the way Spark's `ParquetOutputWriter` does (Spark's
 * `ParquetWriteSupport`, the same `parquet.*` settings), plus right-sized bloom
 * filters for `columns`, spliced in before the footer.
 */
final class BloomParquetOutputWriter(filePath: String, context: TaskAttemptContext, columns: Seq[BloomColumn])
    extends OutputWriter {

  private val writer: ParquetWriter[InternalRow] = {
    val conf = context.getConfiguration
    BloomParquetOutputWriter.refuseEncryption(conf)
    val target = HadoopOutputFile.fromPath(new Path(filePath), conf)
    var support: BloomWriteSupport[InternalRow] = null
    val file = new SplicingOutputFile(target, columns, () => support.rowGroups)
    support = new BloomWriteSupport[InternalRow](SparkCompat.newParquetWriteSupport(), columns, () => file.startBuffering())
    ParquetWriterConfig(new BloomParquetOutputWriter.Builder(file, support), conf)
      .withCompressionCodec(CodecConfig.from(context).getCodec)
      .withWriteMode(ParquetFileWriter.Mode.CREATE)
      .build()
  }

  override def write(row: InternalRow): Unit = writer.write(row)
  override def close(): Unit = writer.close()
  override def path(): String = filePath
}

object BloomParquetOutputWriter {
  final class Builder(file: OutputFile, support: WriteSupport[InternalRow])
      extends ParquetWriter.Builder[InternalRow, Builder](file) {
    override protected def self(): Builder = this
    override protected def getWriteSupport(conf: Configuration): WriteSupport[InternalRow] = support
  }

  /** A guard: [[BloomWrite]] hands encrypted writes to parquet-java, and spliced filters would be plaintext. */
  def refuseEncryption(conf: Configuration): Unit =
    if (ParquetCrypto.configured(conf))
      throw new UnsupportedOperationException(
        s"bloomparquet's filter splicing does not write encrypted Parquet files (${ParquetCrypto.FactoryKey} is set); " +
          "encrypted writes go through parquet-java's own filters")
}
