package io.bloomparquet.tail

import java.nio.ByteBuffer

import io.bloomparquet.compat.PartlyHeldStream
import org.apache.parquet.io.SeekableInputStream

/**
 * A file's stream that serves reads lying inside `tail` (the file's bytes from
 * `tailStart` on, already read) from memory, and passes any other read to
 * `file`: filters stored next to the footer then cost no further request.
 * Closing it leaves `file` open (its opener closes it). A vectored read serves the ranges inside
 * `tail` and hands the rest to `file`'s.
 */
final class TailStream(tail: Array[Byte], tailStart: Long, file: SeekableInputStream) extends PartlyHeldStream {
  /** Where the bytes held in memory start: a read from here on costs no request. */
  def start: Long = tailStart

  private var pos = 0L

  private def inTail(len: Int): Boolean = pos >= tailStart && pos + len <= tailStart + tail.length
  private def offset: Int = (pos - tailStart).toInt

  override def getPos: Long = pos
  override def seek(newPos: Long): Unit = pos = newPos

  override def read(): Int =
    if (inTail(1)) { val b = tail(offset) & 0xff; pos += 1; b }
    else { file.seek(pos); val b = file.read(); if (b >= 0) pos += 1; b }

  override def read(b: Array[Byte], off: Int, len: Int): Int =
    if (len == 0) 0
    else if (inTail(1)) { val n = math.min(len.toLong, tailStart + tail.length - pos).toInt; readFully(b, off, n); n }
    else { file.seek(pos); val n = file.read(b, off, len); if (n > 0) pos += n; n }

  override def readFully(bytes: Array[Byte]): Unit = readFully(bytes, 0, bytes.length)

  override def readFully(bytes: Array[Byte], start: Int, len: Int): Unit = {
    if (inTail(len)) System.arraycopy(tail, offset, bytes, start, len)
    else { file.seek(pos); file.readFully(bytes, start, len) }
    pos += len
  }

  override def read(buf: ByteBuffer): Int = {
    val n = buf.remaining
    if (n == 0) 0
    else if (inTail(1)) {
      val k = math.min(n.toLong, tailStart + tail.length - pos).toInt
      buf.put(tail, offset, k)
      pos += k
      k
    } else { file.seek(pos); val k = file.read(buf); if (k > 0) pos += k; k }
  }

  override def readFully(buf: ByteBuffer): Unit = {
    val n = buf.remaining
    if (inTail(n)) { buf.put(tail, offset, n); pos += n }
    else { file.seek(pos); file.readFully(buf); pos += n }
  }

  override protected def underlying: SeekableInputStream = file

  override protected def held(offset: Long, length: Int): Option[ByteBuffer] =
    if (offset >= tailStart && offset + length <= tailStart + tail.length)
      Some(ByteBuffer.wrap(tail, (offset - tailStart).toInt, length).slice())
    else None

  override def close(): Unit = ()
}
