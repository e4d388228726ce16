package io.bloomparquet.sbbf

import java.io.{ByteArrayInputStream, IOException}

import scala.util.control.NonFatal

import io.bloomparquet.compat.ParquetFilterShims
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
 * is not a positive multiple of 32 or over 128 MiB, a negative or oversized
 * `bloom_filter_length`, bytes past the end of the file, a header that does not
 * parse) comes back as [[FilterFound.Broken]], before anything is allocated;
 * nothing here throws into a query, and no allocation exceeds 128 MiB plus a header.
 */
object BloomFilterReader {

  /** Bytes fetched to find the header when the footer gives no length; headers are ~15 bytes. */
  private[sbbf] val HeaderProbeBytes = 64
  /** Largest plausible header; bounds what `bloom_filter_length` may claim beyond the bitset. */
  private[sbbf] val MaxHeaderBytes = 1024

  def read(in: SeekableInputStream, fileLength: Long, chunk: ColumnChunkMetaData): FilterFound =
    read(in, fileLength, chunk.getBloomFilterOffset, ParquetFilterShims.bloomFilterLength(chunk).getOrElse(UnknownLength),
      SbbfKernels.get())

  /** What parquet-java's footer model reports for a chunk whose footer states no `bloom_filter_length`. */
  val UnknownLength: Int = -1

  /** What parquet-java's footer model reports for a chunk without a filter; any other negative offset is corrupt. */
  val NoOffset: Long = -1L

  /**
   * @param offset `bloom_filter_offset`, [[NoOffset]] when absent
   * @param length `bloom_filter_length`, [[UnknownLength]] when absent
   */
  def read(in: SeekableInputStream, fileLength: Long, offset: Long, length: Int, kernel: SbbfKernel): FilterFound = {
    if (offset == NoOffset) FilterFound.Absent
    else if (offset < 0) FilterFound.Broken(s"negative offset $offset", 0)
    else if (offset >= fileLength) FilterFound.Broken(s"offset $offset outside file of $fileLength bytes", 0)
    else if (length == UnknownLength) readWithoutLength(in, fileLength, offset, kernel)
    else readWithLength(in, fileLength, offset, length, kernel)
  }

  /** The largest `bloom_filter_length` we read: the spec's largest bitset plus a generous header. */
  private val MaxLength: Long = SplitBlockBloomFilter.MaxBytes.toLong + MaxHeaderBytes

  /** Why `[offset, offset + length)` can't hold a filter we would read, if it can't. */
  private def rangeProblem(fileLength: Long, offset: Long, length: Int): Option[String] =
    if (length <= 0 || length > MaxLength) Some(s"bloom_filter_length $length out of range")
    else if (offset + length > fileLength) Some(s"filter [$offset, ${offset + length}) ends past the file ($fileLength bytes)")
    else None

  private def readWithLength(in: SeekableInputStream, fileLength: Long, offset: Long, length: Int,
      kernel: SbbfKernel): FilterFound = {
    rangeProblem(fileLength, offset, length) match {
      case Some(reason) => FilterFound.Broken(reason, 0)
      case None =>
        val bytes = new Array[Byte](length)
        try readFully(in, offset, bytes)
        catch { case e: IOException => return FilterFound.Broken(s"read failed: $e", 0, transient = true) }
        parse(bytes, 0, length, kernel) match {
          case Left(reason) => FilterFound.Broken(reason, length)
          case Right(filter) => FilterFound.Loaded(filter, length)
        }
    }
  }

  private def readWithoutLength(in: SeekableInputStream, fileLength: Long, offset: Long,
      kernel: SbbfKernel): FilterFound = {
    val probe = new Array[Byte](math.min(HeaderProbeBytes.toLong, fileLength - offset).toInt)
    try readFully(in, offset, probe)
    catch { case e: IOException => return FilterFound.Broken(s"read failed: $e", 0, transient = true) }
    parseHeader(probe, 0, probe.length) match {
      case Left(reason) => FilterFound.Broken(reason, probe.length)
      case Right((numBytes, headerSize)) =>
        val bitsetStart = offset + headerSize
        if (bitsetStart + numBytes > fileLength)
          return FilterFound.Broken(s"bitset of $numBytes bytes at $bitsetStart ends past the file ($fileLength bytes)", probe.length)
        val bitset = new Array[Byte](numBytes)
        val inProbe = probe.length - headerSize
        val copied = math.min(inProbe, numBytes)
        System.arraycopy(probe, headerSize, bitset, 0, copied)
        if (copied < numBytes) {
          try readFully(in, bitsetStart + copied, bitset, copied, numBytes - copied)
          catch { case e: IOException => return FilterFound.Broken(s"read failed: $e", probe.length, transient = true) }
        }
        val read = probe.length.toLong + (numBytes - copied)
        FilterFound.Loaded(SplitBlockBloomFilter.fromBytes(bitset, 0, numBytes, kernel), read)
    }
  }

  /** Requests closer than this are fetched in one read (the gap is read and dropped). */
  val CoalesceGapBytes: Long = 1L << 20

  /** A coalesced read grows no further than this (a single filter may reach `MaxLength`). */
  val MaxCoalescedBytes: Long = SplitBlockBloomFilter.MaxBytes

  /** One read: the file range `[start, end)` and the requests (indices) it serves. */
  final case class Group(start: Long, end: Long, members: Vector[Int])

  /**
   * Groups in-range requests into reads: by offset, a request joins the previous
   * read when it starts within [[CoalesceGapBytes]] of its end and the read stays
   * within [[MaxCoalescedBytes]]. So no read exceeds max(MaxCoalescedBytes, MaxLength).
   */
  def coalesce(requests: IndexedSeq[(Long, Int)], indices: Seq[Int]): List[Group] =
    indices.sortBy(i => requests(i)._1).foldLeft(List.empty[Group]) { (groups, i) =>
      val (o, l) = requests(i)
      groups match {
        case g :: rest if o <= g.end + CoalesceGapBytes && math.max(g.end, o + l) - g.start <= MaxCoalescedBytes =>
          g.copy(end = math.max(g.end, o + l), members = g.members :+ i) :: rest
        case _ => Group(o, o + l, Vector(i)) :: groups
      }
    }.reverse

  /**
   * Reads several filters of one file with as few reads as possible: filters
   * whose `bloom_filter_length` is known and in range come from [[coalesce]]d
   * reads (writers store a file's filters together, so this is usually one read
   * per file); the others one by one. Results are in request order. A request
   * with a cipher (encrypted column) is decrypted ([[FilterCipher]]); one without
   * a usable `bloom_filter_length` is not read (parquet-java always writes it).
   */
  def readMany(in: SeekableInputStream, fileLength: Long, requests: IndexedSeq[(Long, Int)],
      kernel: SbbfKernel, ciphers: Int => Option[FilterCipher] = _ => None): IndexedSeq[FilterFound] = {
    val out = new Array[FilterFound](requests.size)
    val (sized, unsized) = requests.indices.partition { i =>
      val (offset, length) = requests(i)
      offset >= 0 && offset < fileLength && rangeProblem(fileLength, offset, length).isEmpty
    }
    unsized.foreach { i =>
      out(i) =
        if (requests(i)._1 >= 0 && ciphers(i).isDefined)
          FilterFound.Broken(s"encrypted filter with bloom_filter_length ${requests(i)._2} is not read", 0)
        else read(in, fileLength, requests(i)._1, requests(i)._2, kernel)
    }
    coalesce(requests, sized).foreach { case Group(start, end, members) =>
      val buf = new Array[Byte]((end - start).toInt)
      val readError =
        try { readFully(in, start, buf); None }
        catch { case e: IOException => Some(s"read failed: $e") }
      members.zipWithIndex.foreach { case (i, n) =>
        val (o, l) = requests(i)
        // Count the bytes of one coalesced read once, on its first filter.
        val bytes = if (n == 0) buf.length.toLong else 0L
        out(i) = readError match {
          case Some(reason) => FilterFound.Broken(reason, 0, transient = true)
          case None => ciphers(i).fold(parse(buf, (o - start).toInt, l, kernel))(
              FilterCipher.parse(buf, (o - start).toInt, l, _, kernel)) match {
              case Left(reason) => FilterFound.Broken(reason, bytes)
              case Right(filter) => FilterFound.Loaded(filter, bytes)
            }
        }
      }
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
