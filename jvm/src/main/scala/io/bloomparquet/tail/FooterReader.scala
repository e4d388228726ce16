package io.bloomparquet.tail

import org.apache.hadoop.fs.{FileStatus, FileSystem}
import org.apache.parquet.format.FileMetaData

/** Reads a plaintext Parquet footer as thrift, for surgery on the file's tail (writer checks, retrofit). */
object FooterReader {
  /** Bytes read from the end first: most footers and their length fit. */
  private val TailProbe = 64 * 1024

  /** The thrift footer and the file position where it starts, read with one or two ranged reads. */
  def read(fs: FileSystem, status: FileStatus): (FileMetaData, Long) = {
    val len = status.getLen
    val in = fs.open(status.getPath)
    try {
      def tail(n: Int): Array[Byte] = {
        val b = new Array[Byte](n)
        in.readFully(len - n, b)
        b
      }
      var bytes = tail(math.min(len, TailProbe.toLong).toInt)
      // A footer longer than the probe: read exactly footer + length + magic.
      FilterTail.footerLength(bytes).filter(n => n + 8L > bytes.length && n + 8L <= len).foreach(n => bytes = tail(n + 8))
      FilterTail.locateFooter(bytes) match {
        case Left(e) => throw new IllegalArgumentException(s"${status.getPath}: $e")
        case Right((start, length)) =>
          (FilterTail.parseFooter(bytes, start, length), len - bytes.length + start)
      }
    } finally in.close()
  }
}
