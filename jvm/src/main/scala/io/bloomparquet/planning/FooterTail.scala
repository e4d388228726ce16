package io.bloomparquet.planning

import java.util.concurrent.atomic.AtomicLong

import scala.util.control.NonFatal

import io.bloomparquet.tail.FilterTail
import org.apache.parquet.format.converter.ParquetMetadataConverter
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.io.SeekableInputStream

/**
 * How many bytes to read from a file's end at once, learned over one scan:
 * 64 KiB at first, then the most any file of the scan needed for its footer and
 * wanted filters (at most 4 MiB), so files like those already read cost one read.
 */
final class TailSizer {
  private val learned = new AtomicLong(TailSizer.Initial)

  def size: Long = learned.get

  /** A file needed its last `bytes` bytes (footer and the filters it read). */
  def learn(bytes: Long): Unit = learned.accumulateAndGet(math.min(bytes, TailSizer.Max), math.max)
}

object TailSizer {
  val Initial: Long = 64L << 10
  val Max: Long = 4L << 20
}

/** A footer parsed from the end of a file, and a stream serving what was read with it. */
final case class FooterTail(footer: ParquetMetadata, footerStart: Long, stream: TailStream)

/**
 * Reads a plaintext Parquet footer with one read of the file's last bytes (a
 * second when the footer is longer), keeping those bytes: a writer that stores
 * its bloom filters next to the footer (bloomparquet's does) has them in the
 * same read. Anything else (an encrypted file, a footer over [[MaxFooterBytes]],
 * bytes that do not parse) is left to parquet-java's own footer reader, so
 * errors and limits are exactly parquet-java's.
 */
object FooterTail {
  /** Footers longer than this go to parquet-java's reader (its allocation, its errors). */
  val MaxFooterBytes: Int = 16 << 20

  private val converter = new ParquetMetadataConverter()

  def read(in: SeekableInputStream, fileLength: Long, speculative: Long): Option[FooterTail] =
    try readOrThrow(in, fileLength, speculative) catch { case NonFatal(_) => None }

  private def readOrThrow(in: SeekableInputStream, fileLength: Long, speculative: Long): Option[FooterTail] = {
    def at(start: Long): Array[Byte] = {
      val bytes = new Array[Byte]((fileLength - start).toInt)
      in.seek(start)
      in.readFully(bytes)
      bytes
    }
    var start = fileLength - math.min(fileLength, speculative)
    var bytes = at(start)
    FilterTail.footerLength(bytes) match {
      case Some(n) if n <= MaxFooterBytes && n + 8L <= fileLength =>
        if (n + 8L > bytes.length) { start = fileLength - n - 8; bytes = at(start) }
      case _ => return None
    }
    FilterTail.locateFooter(bytes).toOption.flatMap { case (at, length) =>
      val fmd = FilterTail.parseFooter(bytes, at, length)
      // A plaintext footer of an encrypted file needs parquet-java's decryption setup.
      if (fmd.isSetEncryption_algorithm || fmd.isSetFooter_signing_key_metadata) None
      else Some(FooterTail(converter.fromParquetMetadata(fmd), start + at, new TailStream(bytes, start, in)))
    }
  }
}
