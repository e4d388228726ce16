package io.bloomparquet.testing

import java.nio.{ByteBuffer, ByteOrder}
import java.util.Locale

import io.bloomparquet.digest.{BlockMajorClass, BloomDigest, DigestEntry, DigestFile, DigestFilter, DigestRowGroup, RowRead}
import io.bloomparquet.kernel.{SbbfKernel, SbbfKernels}
import io.bloomparquet.python.PythonBridge.longs
import io.bloomparquet.sbbf.{FilterFolding, ParquetHash, SplitBlockBloomFilter}
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter

/**
 * py4j entry points of the Python cross-verification tests (test jar only):
 * filters built and checked by a named kernel or by parquet-java, and the JVM's
 * hashes of PLAIN values. Arrays cross as in [[io.bloomparquet.python.PythonBridge]].
 */
object TestBridge {

  /** "scalar", "vector" or "auto" (this JVM's choice); parquet-java is handled by the callers. */
  private def kernel(name: String): SbbfKernel = name.toLowerCase(Locale.ROOT) match {
    case "scalar" => SbbfKernels.scalar()
    case "vector" if SbbfKernels.get().name == "vector" => SbbfKernels.get()
    case "vector" => throw new UnsupportedOperationException(s"no vector kernel here: ${SbbfKernels.reason()}")
    case "auto" => SbbfKernels.get()
    case other => throw new IllegalArgumentException(s"kernel '$other': expected scalar, vector, auto or parquet-java")
  }

  private def isParquetJava(name: String) = name.equalsIgnoreCase("parquet-java")

  private def longBytes(values: Array[Long]): Array[Byte] = {
    val buf = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN)
    buf.asLongBuffer().put(values)
    buf.array()
  }

  /** Bitset of a `numBytes` filter after inserting `hashes` with `kernelName`. */
  def buildFilter(kernelName: String, numBytes: Int, hashes: Array[Byte]): Array[Byte] =
    if (isParquetJava(kernelName)) {
      val f = new BlockSplitBloomFilter(numBytes, numBytes)
      longs(hashes).foreach(f.insertHash)
      val out = new java.io.ByteArrayOutputStream(numBytes)
      f.writeTo(out)
      out.toByteArray
    } else {
      val f = SplitBlockBloomFilter(numBytes, kernel(kernelName))
      val hs = longs(hashes)
      f.kernel.insertAll(f.words, hs, 0, hs.length)
      f.toBytes
    }

  /** One byte (0/1) per hash: may `bitset` contain it, asked through `kernelName`. */
  def checkWith(kernelName: String, bitset: Array[Byte], hashes: Array[Byte]): Array[Byte] = {
    val hs = longs(hashes)
    val answers =
      if (isParquetJava(kernelName)) {
        val f = new BlockSplitBloomFilter(bitset)
        hs.map(f.findHash)
      } else SplitBlockBloomFilter.fromBytes(bitset, 0, bitset.length, kernel(kernelName)).checkHashes(hs)
    answers.map(b => if (b) 1.toByte else 0.toByte)
  }

  /** `bitset` halved while its false-positive rate stays at most `maxFpp` (or its own), as the digest sizes entries. */
  def rightSized(bitset: Array[Byte], maxFpp: Double): Array[Byte] =
    BloomDigest.bytes(FilterFolding.rightSized(SplitBlockBloomFilter.fromBytes(bitset).words, maxFpp))

  /**
   * One byte (0/1) per entry: may entry e hold `hash`, asked of the block-major class of `entries`
   * filters of equal size (`bitsets` back to back) through `kernelName`, reading only `hash`'s row.
   */
  def probeBlockMajor(kernelName: String, bitsets: Array[Byte], entries: Int, hash: Long): Array[Byte] = {
    val size = bitsets.length / entries
    val filters = (0 until entries).map(e => SplitBlockBloomFilter.fromBytes(bitsets, e * size, size, kernel("scalar")).words)
    val c = BlockMajorClass(size / 32, entries)
    val row = BlockMajorClass.rowOf(BlockMajorClass.transpose(filters), c, c.row(hash))
    BlockMajorClass.probe(row, hash, kernel(kernelName)).map(b => if (b) 1.toByte else 0.toByte)
  }

  private def ints(bytes: Array[Byte]): Array[Int] = BloomDigest.words(bytes)

  /**
   * A digest, as the JVM writes it, of filter i (`bitsets` back to back, `sizes(i)` bytes each) on
   * column `columns(i)` (newline-separated) of row group `rowGroups(i)` of file `files(i)`; file f
   * has `rowGroupsPerFile(f)` row groups. Integer arrays as little-endian int32.
   */
  def writeDigest(columns: String, files: Array[Byte], rowGroups: Array[Byte], sizes: Array[Byte], bitsets: Array[Byte],
      rowGroupsPerFile: Array[Byte], fpp: Double): Array[Byte] = {
    val digestFiles = ints(rowGroupsPerFile).toIndexedSeq.zipWithIndex.map { case (n, f) =>
      DigestFile(s"part-$f.parquet", 1000L + f, 1L + f, None, IndexedSeq.tabulate(n)(rg => DigestRowGroup(4L + rg, 1, 1)))
    }
    val offsets = ints(sizes).scanLeft(0)(_ + _)
    val filters = columns.split('\n').toSeq.zipWithIndex.map { case (column, i) =>
      val words = ints(java.util.Arrays.copyOfRange(bitsets, offsets(i), offsets(i + 1)))
      DigestFilter(column, Seq(column), "optional int64 v", DigestEntry(ints(files)(i), ints(rowGroups)(i)), words)
    }
    val out = new java.io.ByteArrayOutputStream()
    BloomDigest.write(out, digestFiles, filters, fpp, Map("created-by" -> "bloomparquet TestBridge"))
    out.toByteArray
  }

  /** The entries of `column` a digest says may hold `hash`, as (file, row group) int32 pairs, probed through `kernelName`. */
  def digestMayHold(kernelName: String, digest: Array[Byte], column: String, hash: Long): Array[Byte] = {
    val open = BloomDigest.open(digest, digest.length).fold(why => throw new IllegalArgumentException(why), identity)
    def rowWords(r: RowRead): Array[Int] = ints(java.util.Arrays.copyOfRange(digest, r.offset.toInt, (r.offset + r.length).toInt))
    val entries = open.mayHold(column, _ => Array(hash), rowWords, kernel(kernelName)).toSeq.sortBy(e => (e.file, e.rowGroup))
    BloomDigest.bytes(entries.flatMap(e => Seq(e.file, e.rowGroup)).toArray)
  }

  /**
   * Hashes of PLAIN-encoded values: fixed-width values back to back, BYTE_ARRAY
   * with its 4-byte little-endian length prefixes, FIXED_LEN_BYTE_ARRAY as
   * `typeLength`-byte slices. Returns little-endian uint64 hashes.
   */
  def hashPlain(physicalType: String, plain: Array[Byte], typeLength: Int): Array[Byte] = {
    val buf = ByteBuffer.wrap(plain).order(ByteOrder.LITTLE_ENDIAN)
    val hashes = physicalType.toUpperCase(Locale.ROOT) match {
      case "INT32" => Array.fill(plain.length / 4)(ParquetHash.int32(buf.getInt()))
      case "INT64" => Array.fill(plain.length / 8)(ParquetHash.int64(buf.getLong()))
      case "FLOAT" => Array.fill(plain.length / 4)(ParquetHash.float(buf.getFloat()))
      case "DOUBLE" => Array.fill(plain.length / 8)(ParquetHash.double(buf.getDouble()))
      case "FIXED_LEN_BYTE_ARRAY" =>
        Array.tabulate(plain.length / typeLength)(i => ParquetHash.bytes(plain, i * typeLength, typeLength))
      case "BYTE_ARRAY" =>
        val out = Array.newBuilder[Long]
        while (buf.hasRemaining) {
          val len = buf.getInt()
          out += ParquetHash.bytes(plain, buf.position(), len)
          buf.position(buf.position() + len)
        }
        out.result()
      case other => throw new IllegalArgumentException(s"physical type $other has no bloom filter hash")
    }
    longBytes(hashes)
  }
}
