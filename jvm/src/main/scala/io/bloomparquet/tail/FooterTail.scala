package io.bloomparquet.tail

import java.io.ByteArrayInputStream
import java.nio.charset.StandardCharsets.US_ASCII
import java.nio.{ByteBuffer, ByteOrder}

import scala.util.control.NonFatal

import org.apache.hadoop.fs.{FileStatus, FileSystem}
import org.apache.parquet.format.converter.ParquetMetadataConverter
import org.apache.parquet.format.{FileMetaData, Util}
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopStreams
import org.apache.parquet.io.SeekableInputStream

/**
 * A footer parsed from the end of a file, where it starts, a stream serving
 * the bytes read with it (the file's from `stream`'s tail start on) from memory,
 * the bytes its reads took (a second read when the first fell short included),
 * and the filter lengths its bytes state that the footer model lacks.
 */
final case class FooterTail(footer: ParquetMetadata, footerStart: Long, stream: TailStream, bytesRead: Long,
    filterLengths: FilterLengths)

/**
 * The one reader of Parquet file ends: one read of a file's last bytes (a second
 * when the footer is longer), the footer located in them and parsed with
 * parquet-format-structures' thrift classes, and the bytes kept: a writer that
 * stores its bloom filters next to the footer (bloomparquet's does) has them in
 * the same read. Planning takes parquet-java's metadata ([[read]]); the file
 * tools (retrofit, the filters table) take the thrift footer to do surgery on
 * ([[readThrift]]).
 */
object FooterTail {
  val Magic: Array[Byte] = "PAR1".getBytes(US_ASCII)
  val EncryptedMagic: Array[Byte] = "PARE".getBytes(US_ASCII)

  /** Footers longer than this go to parquet-java's reader in planning (its allocation, its errors). */
  val MaxFooterBytes: Int = 16 << 20

  private val converter = new ParquetMetadataConverter()

  /** A file's last bytes read: its thrift footer, where the footer starts, and the bytes from `start` on. */
  final case class Raw(fmd: FileMetaData, footerStart: Long, bytes: Array[Byte], start: Long, bytesRead: Long)

  /**
   * Planning's read: parquet-java's metadata of a plaintext footer, with one read of
   * `speculative` bytes. None for anything else (an encrypted file, a footer over
   * [[MaxFooterBytes]], bytes that do not parse): left to parquet-java's own footer
   * reader, so errors and limits are exactly parquet-java's.
   */
  def read(in: SeekableInputStream, fileLength: Long, speculative: Long): Option[FooterTail] =
    try readRaw(in, fileLength, speculative, MaxFooterBytes).toOption.flatMap { raw =>
        // A plaintext footer of an encrypted file needs parquet-java's decryption setup.
        if (raw.fmd.isSetEncryption_algorithm || raw.fmd.isSetFooter_signing_key_metadata) None
        else {
          val footer = converter.fromParquetMetadata(raw.fmd)
          val at = (raw.footerStart - raw.start).toInt
          val lengths = FilterLengths.of(footer, raw.bytes, at, raw.bytes.length - 8 - at)
          Some(FooterTail(footer, raw.footerStart, new TailStream(raw.bytes, raw.start, in), raw.bytesRead, lengths))
        }
      }
    catch { case NonFatal(_) => None }

  /** The file tools' read: the thrift footer and the file position where it starts. */
  def readThrift(fs: FileSystem, status: FileStatus): (FileMetaData, Long) = {
    val in = HadoopStreams.wrap(fs.open(status.getPath))
    try readRaw(in, status.getLen, InitialRead, Int.MaxValue) match {
        case Left(e) => throw new IllegalArgumentException(s"${status.getPath}: $e")
        case Right(raw) => (raw.fmd, raw.footerStart)
      }
    finally in.close()
  }

  /** Bytes the file tools read from the end first: most footers and their length fit. */
  private val InitialRead = 64L * 1024

  /** The last `speculative` bytes of the file, or the footer and its length and magic when longer. */
  private def readRaw(in: SeekableInputStream, fileLength: Long, speculative: Long, maxFooter: Int): Either[String, Raw] = {
    def from(start: Long): Array[Byte] = {
      val bytes = new Array[Byte]((fileLength - start).toInt)
      in.seek(start)
      in.readFully(bytes)
      bytes
    }
    var start = fileLength - math.min(fileLength, speculative)
    var bytes = from(start)
    var read = bytes.length.toLong
    footerLength(bytes) match {
      case Some(n) if n > maxFooter => return Left(s"footer length $n is over $maxFooter bytes")
      case Some(n) if n + 8L > bytes.length && n + 8L <= fileLength =>
        start = fileLength - n - 8; bytes = from(start); read += bytes.length
      case _ =>
    }
    locateFooter(bytes).map { case (at, length) => Raw(parseFooter(bytes, at, length), start + at, bytes, start, read) }
  }

  /** The footer length a plaintext Parquet file's last 8 bytes state, whether or not `tail` holds it all. */
  def footerLength(tail: Array[Byte]): Option[Int] =
    if (tail.length < 8 || !java.util.Arrays.equals(java.util.Arrays.copyOfRange(tail, tail.length - 4, tail.length), Magic)) None
    else Some(ByteBuffer.wrap(tail, tail.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt).filter(_ > 0)

  /** Where the footer is in `tail` (the last bytes of a file): (footer start in tail, footer length), or why not. */
  def locateFooter(tail: Array[Byte]): Either[String, (Int, Int)] = {
    if (tail.length < 12) return Left(s"${tail.length} bytes cannot hold a Parquet footer")
    val magic = java.util.Arrays.copyOfRange(tail, tail.length - 4, tail.length)
    if (java.util.Arrays.equals(magic, EncryptedMagic))
      return Left(s"the file has an encrypted footer (Parquet modular encryption); ${FilterTail.NoSplicing}")
    if (!java.util.Arrays.equals(magic, Magic)) return Left("the file does not end with the Parquet magic PAR1")
    val len = ByteBuffer.wrap(tail, tail.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt
    if (len <= 0 || len > tail.length - 8) Left(s"footer length $len does not fit the ${tail.length}-byte tail")
    else Right((tail.length - 8 - len, len))
  }

  def parseFooter(bytes: Array[Byte], offset: Int, length: Int): FileMetaData =
    Util.readFileMetaData(new ByteArrayInputStream(bytes, offset, length))
}
