package io.bloomparquet.sbbf

import java.io.{ByteArrayInputStream, IOException}

import scala.util.control.NonFatal

import io.bloomparquet.kernel.{SbbfKernel, SbbfKernels}
import org.apache.parquet.format.{BloomFilterHeader, Util}
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData
import org.apache.parquet.io.SeekableInputStream

/**
 * Reads a column chunk's bloom filter: the thrift `BloomFilterHeader` (parsed
 * with parquet-format-structures) followed by the bitset. One read when the
 * footer gives `bloom_filter_length`, otherwise the header then the bitset.
 *
 * Anything we can't use (another algorithm, hash or compression, a size that
 * is not a positive multiple of 32 or over 128 MiB, bytes past the end of the
 * file, a header that does not parse) comes back as [[BloomFilterRead.Broken]];
 * nothing here throws into a query, and no allocation exceeds the 128 MiB cap.
 */
object BloomFilterReader {

  /** Bytes fetched to find the header when the footer gives no length; headers are ~15 bytes. */
  private[sbbf] val HeaderProbeBytes = 64
  /** Largest plausible header; bounds what `bloom_filter_length` may claim beyond the bitset. */
  private[sbbf] val MaxHeaderBytes = 1024

  def read(in: SeekableInputStream, fileLength: Long, chunk: ColumnChunkMetaData): BloomFilterRead =
    read(in, fileLength, chunk.getBloomFilterOffset, chunk.getBloomFilterLength, SbbfKernels.get())

  /**
   * @param offset `bloom_filter_offset`, negative when absent
   * @param length `bloom_filter_length`, negative when absent
   */
  def read(in: SeekableInputStream, fileLength: Long, offset: Long, length: Int, kernel: SbbfKernel): BloomFilterRead = {
    if (offset < 0) BloomFilterRead.Absent
    else if (offset >= fileLength) BloomFilterRead.Broken(s"offset $offset outside file of $fileLength bytes", 0)
    else if (length >= 0) readWithLength(in, fileLength, offset, length, kernel)
    else readWithoutLength(in, fileLength, offset, kernel)
  }

  private def readWithLength(in: SeekableInputStream, fileLength: Long, offset: Long, length: Int,
      kernel: SbbfKernel): BloomFilterRead = {
    if (length <= 0 || length > SplitBlockBloomFilter.MaxBytes + MaxHeaderBytes)
      return BloomFilterRead.Broken(s"bloom_filter_length $length out of range", 0)
    if (offset + length > fileLength)
      return BloomFilterRead.Broken(s"filter [$offset, ${offset + length}) ends past the file ($fileLength bytes)", 0)
    val bytes = new Array[Byte](length)
    try readFully(in, offset, bytes)
    catch { case e: IOException => return BloomFilterRead.Broken(s"read failed: $e", 0, transient = true) }
    parse(bytes, 0, length, kernel) match {
      case Left(reason) => BloomFilterRead.Broken(reason, length)
      case Right(filter) => BloomFilterRead.Loaded(filter, length)
    }
  }

  private def readWithoutLength(in: SeekableInputStream, fileLength: Long, offset: Long,
      kernel: SbbfKernel): BloomFilterRead = {
    val probe = new Array[Byte](math.min(HeaderProbeBytes.toLong, fileLength - offset).toInt)
    try readFully(in, offset, probe)
    catch { case e: IOException => return BloomFilterRead.Broken(s"read failed: $e", 0, transient = true) }
    parseHeader(probe, 0, probe.length) match {
      case Left(reason) => BloomFilterRead.Broken(reason, probe.length)
      case Right((numBytes, headerSize)) =>
        val bitsetStart = offset + headerSize
        if (bitsetStart + numBytes > fileLength)
          return BloomFilterRead.Broken(s"bitset of $numBytes bytes at $bitsetStart ends past the file ($fileLength bytes)", probe.length)
        val bitset = new Array[Byte](numBytes)
        val inProbe = probe.length - headerSize
        val copied = math.min(inProbe, numBytes)
        System.arraycopy(probe, headerSize, bitset, 0, copied)
        if (copied < numBytes) {
          try readFully(in, bitsetStart + copied, bitset, copied, numBytes - copied)
          catch { case e: IOException => return BloomFilterRead.Broken(s"read failed: $e", probe.length, transient = true) }
        }
        val read = probe.length.toLong + (numBytes - copied)
        BloomFilterRead.Loaded(SplitBlockBloomFilter.fromBytes(bitset, 0, numBytes, kernel), read)
    }
  }

  /** Requests closer than this are fetched in one read (the gap is read and dropped). */
  val CoalesceGapBytes: Long = 1L << 20

  /**
   * Reads several filters of one file with as few reads as possible: filters
   * whose `bloom_filter_length` is known and that lie within [[CoalesceGapBytes]]
   * of each other come from one read (writers store a file's filters together,
   * so this is usually one read per file). Results are in request order.
   */
  def readMany(in: SeekableInputStream, fileLength: Long, requests: IndexedSeq[(Long, Int)],
      kernel: SbbfKernel): IndexedSeq[BloomFilterRead] = {
    val out = new Array[BloomFilterRead](requests.size)
    val (sized, unsized) = requests.indices.partition { i =>
      val (offset, length) = requests(i)
      offset >= 0 && offset < fileLength && length > 0 && length <= SplitBlockBloomFilter.MaxBytes + MaxHeaderBytes &&
        offset + length <= fileLength
    }
    unsized.foreach { i => out(i) = read(in, fileLength, requests(i)._1, requests(i)._2, kernel) }
    val byOffset = sized.sortBy(i => requests(i)._1)
    var k = 0
    while (k < byOffset.size) {
      // Grow a group while the next filter starts close to the group's end and the read stays bounded.
      val start = requests(byOffset(k))._1
      var end = start + requests(byOffset(k))._2
      var j = k
      while (j + 1 < byOffset.size && {
          val (o, l) = requests(byOffset(j + 1))
          o <= end + CoalesceGapBytes && math.max(end, o + l) - start <= SplitBlockBloomFilter.MaxBytes
        }) {
        j += 1
        val (o, l) = requests(byOffset(j))
        end = math.max(end, o + l)
      }
      val group = byOffset.slice(k, j + 1)
      val buf = new Array[Byte]((end - start).toInt)
      val readError =
        try { readFully(in, start, buf); None }
        catch { case e: IOException => Some(s"read failed: $e") }
      var first = true
      group.foreach { i =>
        val (o, l) = requests(i)
        // Count the bytes of one coalesced read once, on its first filter.
        val bytes = if (first) buf.length.toLong else 0L
        first = false
        out(i) = readError match {
          case Some(reason) => BloomFilterRead.Broken(reason, 0, transient = true)
          case None => parse(buf, (o - start).toInt, l, kernel) match {
            case Left(reason) => BloomFilterRead.Broken(reason, bytes)
            case Right(filter) => BloomFilterRead.Loaded(filter, bytes)
          }
        }
      }
      k = j + 1
    }
    out.toIndexedSeq
  }

  /** Parses header + bitset held in `bytes[offset, offset + length)`. */
  def parse(bytes: Array[Byte], offset: Int, length: Int, kernel: SbbfKernel): Either[String, SplitBlockBloomFilter] =
    parseHeader(bytes, offset, length).flatMap { case (numBytes, headerSize) =>
      if (headerSize.toLong + numBytes > length)
        Left(s"header says $numBytes bitset bytes but only ${length - headerSize} follow it")
      else Right(SplitBlockBloomFilter.fromBytes(bytes, offset + headerSize, numBytes, kernel))
    }

  /** (bitset bytes, header size) of a valid SBBF/XXHASH/UNCOMPRESSED header, or why it isn't one. */
  def parseHeader(bytes: Array[Byte], offset: Int, length: Int): Either[String, (Int, Int)] = {
    val in = new ByteArrayInputStream(bytes, offset, length)
    val header: BloomFilterHeader =
      try Util.readBloomFilterHeader(in)
      catch { case NonFatal(e) => return Left(s"unreadable bloom filter header: ${e.getMessage}") }
    val headerSize = length - in.available()
    val numBytes = header.getNumBytes
    if (header.getAlgorithm == null || !header.getAlgorithm.isSetBLOCK) Left(s"algorithm ${header.getAlgorithm} is not SPLIT_BLOCK")
    else if (header.getHash == null || !header.getHash.isSetXXHASH) Left(s"hash ${header.getHash} is not XXHASH")
    else if (header.getCompression == null || !header.getCompression.isSetUNCOMPRESSED)
      Left(s"compression ${header.getCompression} is not UNCOMPRESSED")
    else if (!SplitBlockBloomFilter.isValidSize(numBytes.toLong))
      Left(s"numBytes $numBytes is not a positive multiple of ${SplitBlockBloomFilter.BlockBytes} up to ${SplitBlockBloomFilter.MaxBytes}")
    else Right((numBytes, headerSize))
  }

  private def readFully(in: SeekableInputStream, position: Long, buf: Array[Byte]): Unit =
    readFully(in, position, buf, 0, buf.length)

  private def readFully(in: SeekableInputStream, position: Long, buf: Array[Byte], off: Int, len: Int): Unit = {
    in.seek(position)
    in.readFully(buf, off, len)
  }
}
