package io.bloomparquet.planning

import io.bloomparquet.options.ParquetCrypto
import io.bloomparquet.tail.FooterTail
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.ParquetReadOptions
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.io.{InputFile, SeekableInputStream}

/**
 * How planning reads a footer: with the session's keys when it configures a
 * crypto factory (parquet-java's reader, [[FileDecryption]]), else from one read
 * of the file's end ([[FooterTail]], whose bytes also serve the filters stored
 * next to the footer), and parquet-java's reader for whatever that read leaves.
 */
object FileFooter {
  // Built once: ParquetReadOptions.builder() makes a fresh Hadoop Configuration, which parses the
  // default XML resources from the classpath (~5 ms each: 5 s for 1,000 files).
  lazy val plainReadOptions: ParquetReadOptions = ParquetReadOptions.builder().build()

  /** `file`'s footer, and the tail read with it when there was one; `speculative`: bytes to read from the end. */
  def read(file: InputFile, path: Path, conf: Configuration, speculative: Long,
      stream: SeekableInputStream): (ParquetMetadata, Option[FooterTail]) =
    if (ParquetCrypto.configured(conf))
      (ParquetFileReader.readFooter(file, FileDecryption.readOptions(conf, path, plainReadOptions), stream), None)
    else {
      val tail = FooterTail.read(stream, file.getLength, speculative)
      (tail.fold(ParquetFileReader.readFooter(file, plainReadOptions, stream))(_.footer), tail)
    }
}
