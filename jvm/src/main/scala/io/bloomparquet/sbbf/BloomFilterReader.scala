package io.bloomparquet.sbbf

import java.io.{ByteArrayInputStream, IOException}

import scala.util.control.NonFatal

import io.bloomparquet.compat.{ByteRange, ParquetFilterShims, VectoredReads}
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

  def read(in: SeekableInputStream, fileLength: Long, chunk: ColumnChunkMetaData): FilterFound.Whole =
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
  def read(in: SeekableInputStream, fileLength: Long, offset: Long, length: Int, kernel: SbbfKernel): FilterFound.Whole = {
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
      kernel: SbbfKernel): FilterFound.Whole = {
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
      kernel: SbbfKernel): FilterFound.Whole = {
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

  /** A filter to read: its `bloom_filter_offset` and `bloom_filter_length` ([[UnknownLength]] where the footer has none). */
  final case class FilterAt(offset: Long, length: Int)

  /** One read: the file range `[start, end)` and the requests (indices) it serves. */
  final case class Group(start: Long, end: Long, members: Vector[Int]) {
    def range: ByteRange = ByteRange(start, end - start)
  }

  /**
   * Groups in-range requests into reads: by offset, a request joins the previous
   * read when it starts within [[CoalesceGapBytes]] of its end and the read stays
   * within [[MaxCoalescedBytes]]. So no read exceeds max(MaxCoalescedBytes, MaxLength).
   */
  def coalesce(requests: IndexedSeq[FilterAt], indices: Seq[Int]): List[Group] =
    indices.sortBy(i => requests(i).offset).foldLeft(List.empty[Group]) { (groups, i) =>
      val FilterAt(o, l) = requests(i)
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
  def readMany(in: SeekableInputStream, fileLength: Long, requests: IndexedSeq[FilterAt],
      kernel: SbbfKernel, ciphers: Int => Option[FilterCipher] = _ => None): IndexedSeq[FilterFound.Whole] = {
    val out = new Array[FilterFound.Whole](requests.size)
    val (sized, unsized) = requests.indices.partition { i =>
      val FilterAt(offset, length) = requests(i)
      offset >= 0 && offset < fileLength && rangeProblem(fileLength, offset, length).isEmpty
    }
    unsized.foreach { i =>
      out(i) =
        if (requests(i).offset >= 0 && ciphers(i).isDefined)
          FilterFound.Broken(s"encrypted filter with bloom_filter_length ${requests(i).length} is not read", 0)
        else read(in, fileLength, requests(i).offset, requests(i).length, kernel)
    }
    coalesce(requests, sized).foreach { case Group(start, end, members) =>
      val buf = new Array[Byte]((end - start).toInt)
      val readError =
        try { readFully(in, start, buf); None }
        catch { case e: IOException => Some(s"read failed: $e") }
      members.zipWithIndex.foreach { case (i, n) =>
        val FilterAt(o, l) = requests(i)
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

  /** Fewer bytes than any SBBF/XXHASH/UNCOMPRESSED header takes (its four required fields and a stop byte). */
  private val MinHeaderBytes = 8

  /**
   * Where a filter stored in `length` bytes (`bloom_filter_length`) keeps its blocks, if its
   * header is shorter than a block: (header bytes, blocks). The bitset is whole 32-byte blocks,
   * so such a header takes `length` mod 32 bytes (valid ones take 12 to 20). None where `length`
   * can't be that; the header read with the blocks confirms it ([[readBlocks]]).
   */
  def blockLayout(length: Int): Option[(Int, Int)] = {
    val header = length % SplitBlockBloomFilter.BlockBytes
    if (length <= 0 || length > MaxLength || header < MinHeaderBytes || length - header < SplitBlockBloomFilter.MinBytes) None
    else Some(header -> (length - header) / SplitBlockBloomFilter.BlockBytes)
  }

  /** A filter to read in part: its `bloom_filter_offset` and `bloom_filter_length`, and the blocks wanted. */
  final case class BlockRequest(offset: Long, length: Int, blocks: IndexedSeq[Int])

  /** One range of a block read: `[start, start + length)`, of request `request`; `block` -1 for its header. */
  private final case class Piece(start: Long, length: Int, request: Int, block: Int) {
    def end: Long = start + length
  }

  /**
   * The file ranges [[readBlocks]] reads for `requests`: per request its header and wanted blocks,
   * merged where the gap between two is at most `gapBytes` (reading the gap costs less than another
   * request) and the read stays within [[MaxCoalescedBytes]]. By offset.
   */
  def blockReads(requests: IndexedSeq[BlockRequest], gapBytes: Long): Seq[ByteRange] =
    group(pieces(requests), gapBytes).map(spanned)

  /** The range a group of pieces is read with: from its first piece's start to its furthest end. */
  private def spanned(group: Vector[Piece]): ByteRange = ByteRange(group.head.start, group.map(_.end).max - group.head.start)

  private def pieces(requests: IndexedSeq[BlockRequest]): IndexedSeq[Piece] =
    requests.indices.flatMap { i =>
      val r = requests(i)
      blockLayout(r.length).toSeq.flatMap { case (header, numBlocks) =>
        Piece(r.offset, header, i, -1) +: r.blocks.filter(b => b >= 0 && b < numBlocks).distinct.map(b =>
          Piece(r.offset + header + SplitBlockBloomFilter.BlockBytes.toLong * b, SplitBlockBloomFilter.BlockBytes, i, b))
      }
    }.sortBy(_.start)

  private def group(sorted: IndexedSeq[Piece], gapBytes: Long): List[Vector[Piece]] =
    sorted.foldLeft(List.empty[(Long, Vector[Piece])]) { (groups, p) =>
      groups match {
        case (end, g) :: rest if p.start <= end + gapBytes && p.end - g.head.start <= MaxCoalescedBytes =>
          (math.max(end, p.end), g :+ p) :: rest
        case _ => (p.end, Vector(p)) :: groups
      }
    }.reverse.map(_._2)

  /**
   * Reads the header and the wanted blocks of each request's filter ([[blockReads]]), not the
   * whole bitset. A request the layout does not fit, or whose header read does not confirm it
   * (another header size or bitset length), is read whole ([[read]]); one outside the file is
   * [[FilterFound.Broken]]. Results in request order: [[FilterFound.Blocks]] or what a whole read
   * gives. A read's bytes (its gaps included) count on the request of its first range.
   */
  def readBlocks(in: SeekableInputStream, fileLength: Long, requests: IndexedSeq[BlockRequest], gapBytes: Long,
      kernel: SbbfKernel, vectored: Boolean = false): BlockReads = {
    val out = new Array[FilterFound](requests.size)
    val readWhole = scala.collection.mutable.Map.empty[Int, Long]
    def whole(i: Int): FilterFound.Whole = {
      val found = read(in, fileLength, requests(i).offset, requests(i).length, kernel)
      if (found.bytesRead > 0) readWhole(i) = found.bytesRead
      found
    }
    val (fits, others) = requests.indices.partition { i =>
      val r = requests(i)
      r.offset >= 0 && r.offset < fileLength && rangeProblem(fileLength, r.offset, r.length).isEmpty &&
      blockLayout(r.length).isDefined
    }
    others.foreach(i => out(i) = whole(i))
    val bytesOf = new Array[Long](requests.size)
    val failed = scala.collection.mutable.Map.empty[Int, String]
    // Per request: its header's bytes, and its blocks' bytes in the order of `blocks`.
    val header = new Array[Array[Byte]](requests.size)
    val blockBytes = Array.fill(requests.size)(scala.collection.mutable.ArrayBuffer.empty[(Int, Array[Byte])])
    val groups = group(pieces(fits.map(requests)).map(p => p.copy(request = fits(p.request))), gapBytes)
    groups.zip(fetch(in, groups.map(spanned), vectored)).foreach { case (g, read) =>
      val start = g.head.start
      bytesOf(g.head.request) += spanned(g).length
      read match {
        case Right(buf) =>
          g.foreach { p =>
            val bytes = java.util.Arrays.copyOfRange(buf, (p.start - start).toInt, (p.end - start).toInt)
            if (p.block < 0) header(p.request) = bytes else blockBytes(p.request) += (p.block -> bytes)
          }
        case Left(reason) => g.foreach(p => failed(p.request) = reason)
      }
    }
    fits.foreach { i =>
      val r = requests(i)
      val (headerSize, numBlocks) = blockLayout(r.length).get
      out(i) = failed.get(i) match {
        case Some(reason) => FilterFound.Broken(reason, bytesOf(i), transient = true)
        case None => parseHeader(header(i), 0, headerSize) match {
            case Right((numBytes, size)) if size == headerSize && numBytes == r.length - headerSize =>
              val held = blockBytes(i)
              val bytes = held.iterator.flatMap(_._2.iterator).toArray
              val blocks = FilterBlocks.fromBytes(numBlocks, held.map(_._1).toIndexedSeq, bytes,
                held.indices.map(_ * SplitBlockBloomFilter.BlockBytes), kernel)
              FilterFound.Blocks(blocks, bytesOf(i))
            case _ => // not the layout guessed: the whole filter says what it is
              whole(i) match {
                case FilterFound.Loaded(f, n) => FilterFound.Loaded(f, n + bytesOf(i))
                case FilterFound.Broken(reason, n, transient) => FilterFound.Broken(reason, n + bytesOf(i), transient)
                case FilterFound.Absent => FilterFound.Absent
              }
          }
      }
    }
    BlockReads(out.toIndexedSeq, readWhole.toMap)
  }

  /**
   * What [[readBlocks]] found, in request order, and the requests it read whole after all (their
   * layout not confirmed): request index -> that whole read's bytes.
   */
  final case class BlockReads(found: IndexedSeq[FilterFound], readWhole: Map[Int, Long])

  /**
   * The bytes of `ranges` (sorted, none overlapping), or why a range failed: in one
   * vectored read where `vectored` asks for it and the stream can, else (or if that read fails)
   * one positioned read each.
   */
  private def fetch(in: SeekableInputStream, ranges: Seq[ByteRange], vectored: Boolean): Seq[Either[String, Array[Byte]]] = {
    val together =
      if (vectored && ranges.size > 1) try VectoredReads.read(in, ranges)
      catch { case NonFatal(_) => None }
      else None
    together.fold(ranges.map { r =>
      val buf = new Array[Byte](Math.toIntExact(r.length))
      try { readFully(in, r.start, buf); Right(buf): Either[String, Array[Byte]] }
      catch { case e: IOException => Left(s"read failed: $e") }
    })(_.map(Right(_)))
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
