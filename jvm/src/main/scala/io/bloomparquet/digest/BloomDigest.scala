package io.bloomparquet.digest

import java.io.OutputStream
import java.nio.{ByteBuffer, ByteOrder}

import io.bloomparquet.digest.PuffinFile.NewBlob
import io.bloomparquet.kernel.SbbfKernel
import io.bloomparquet.sbbf.FilterFolding

/** The filter of `column` (stored as leaf `leaf` of `parquetType`) in one row group of a digested file (`entry`). */
final case class DigestFilter(column: String, leaf: Seq[String], parquetType: String, entry: DigestEntry, words: Array[Int])

/** One row of one size class a probe reads: where it lies in the digest file. */
final case class RowRead(classIndex: Int, row: Int, offset: Long, length: Long)

/**
 * A bloom digest opened from its file's tail: the footer, the index, and the blob of each of the
 * index's classes. Probing a value reads one row of each class of its column ([[reads]]), then
 * answers which entries may hold it ([[mayHold]]).
 */
final case class OpenDigest(footer: PuffinFooter, index: DigestIndex, classBlobs: IndexedSeq[PuffinBlob]) {

  /** Each covered file's index, by its path relative to the table's root; -1 for a path it does not cover. */
  def fileAt(path: String): Int = {
    val i = filesByPath.get(path)
    if (i == null) -1 else i.intValue
  }

  // A Java map, built and asked once per file of a table: cheaper than an immutable one at 100,000 files.
  private lazy val filesByPath: java.util.HashMap[String, Integer] = {
    val m = new java.util.HashMap[String, Integer](index.files.size * 2)
    index.files.indices.foreach(i => m.put(index.files(i).path, i))
    m
  }

  /**
   * The rows the probed values need on `column`: per class of the column, each row once, ascending.
   * `hashes` gives the values' hashes for a class's Parquet type ([[DigestClass.parquetType]]).
   */
  def reads(column: String, hashes: String => Array[Long]): Seq[RowRead] =
    index.classes.indices.filter(index.classes(_).column == column).flatMap(i => readsOf(i, hashes(index.classes(i).parquetType)))

  /** The rows of class `i` that `hashes` need, each once, ascending. */
  def readsOf(i: Int, hashes: Array[Long]): Seq[RowRead] = {
    val layout = index.classes(i).layout
    layout.rows(hashes).toSeq.map(r => RowRead(i, r, classBlobs(i).offset + layout.rowOffset(r), layout.rowBytes))
  }

  /** The entries of class `i` that may hold one of `hashes`, given the words of each row [[readsOf]] named. */
  def mayHoldIn(i: Int, hashes: Array[Long], rowWords: RowRead => Array[Int], kernel: SbbfKernel): Set[DigestEntry] = {
    val held = heldIn(i, hashes, rowWords, kernel)
    index.classes(i).entries.indices.filter(held.get).map(index.classes(i).entries).toSet
  }

  /** As [[mayHoldIn]], as the positions of those entries among the class's entries. */
  def heldIn(i: Int, hashes: Array[Long], rowWords: RowRead => Array[Int], kernel: SbbfKernel): java.util.BitSet = {
    val layout = index.classes(i).layout
    val held = new java.util.BitSet(index.classes(i).entries.size)
    readsOf(i, hashes).foreach { read =>
      val words = rowWords(read)
      hashes.iterator.filter(layout.row(_) == read.row).foreach { h =>
        val may = BlockMajorClass.probe(words, h, kernel)
        may.indices.foreach(e => if (may(e)) held.set(e))
      }
    }
    held
  }

  /**
   * The entries of `column` that may hold one of `hashes`, given the words of each row [[reads]]
   * named. An entry absent from the answer holds none of them, as its own filter would have said.
   */
  def mayHold(column: String, hashes: String => Array[Long], rowWords: RowRead => Array[Int],
      kernel: SbbfKernel): Set[DigestEntry] =
    index.classes.indices.filter(index.classes(_).column == column)
      .flatMap(i => mayHoldIn(i, hashes(index.classes(i).parquetType), rowWords, kernel)).toSet
}

/**
 * A table's bloom digest, written from the filters already in its files: each row group's filter
 * right-sized ([[FilterFolding.rightSized]]) and grouped by column and block count into size classes,
 * each class a Puffin blob stored block-major, and the [[DigestIndex]] last, so one read of the
 * file's tail brings footer and index.
 */
object BloomDigest {
  val ClassBlobType: String = "bloomparquet-sbbf-block-major-v1"

  /** Writes the digest of `files` and their `filters`, folded to at most `fpp` (or their own rate); returns its footer. */
  def write(out: OutputStream, files: IndexedSeq[DigestFile], filters: Seq[DigestFilter], fpp: Double,
      properties: Map[String, String]): PuffinFooter = {
    val sized = filters.map(f => f.copy(words = FilterFolding.rightSized(f.words, fpp)))
    val classes = sized.groupBy(f => (f.column, f.leaf, f.parquetType, f.words.length / 8)).toSeq
      .sortBy { case ((column, leaf, parquetType, blocks), _) => (column, leaf.mkString("\u0000"), parquetType, blocks) }
      .map { case ((column, leaf, parquetType, blocks), fs) =>
        val ordered = fs.sortBy(f => (f.entry.file, f.entry.rowGroup)).toIndexedSeq
        val rows = bytes(BlockMajorClass.transpose(ordered.map(_.words)))
        val rowBytes = rows.length / blocks
        (DigestClass(column, leaf, parquetType, blocks, ordered.map(_.entry),
            (0 until blocks).map(r => rowChecksum(rows, r * rowBytes, rowBytes))), rows)
      }
    val index = DigestIndex(files, classes.map(_._1).toIndexedSeq, fpp)
    val classBlobs = classes.map { case (c, rows) =>
      NewBlob(ClassBlobType, Nil,
        Map("column" -> c.column, "parquet-type" -> c.parquetType, "blocks" -> c.blocks.toString,
          "entries" -> c.entries.size.toString),
        rows)
    }
    PuffinFile.write(out, classBlobs :+ NewBlob(DigestIndex.BlobType, Nil, Map.empty, DigestIndex.encode(index)), properties)
  }

  /**
   * The digest whose file (of `fileLength` bytes) ends with `tail`, or why it is not a whole, known
   * digest: a damaged footer, no index or an index of another version, or class blobs that do not
   * match the index (column, block count, entries, length). Blobs of other types are left alone.
   */
  def open(tail: Array[Byte], fileLength: Long): Either[String, OpenDigest] =
    PuffinFile.footer(tail, fileLength).flatMap { footer =>
      val tailStart = fileLength - tail.length
      footer.blobs.filter(_.kind == DigestIndex.BlobType) match {
        case Seq(blob) if blob.offset >= tailStart =>
          val at = (blob.offset - tailStart).toInt
          DigestIndex.decode(java.util.Arrays.copyOfRange(tail, at, at + blob.length.toInt)).flatMap { index =>
            val classBlobs = footer.blobs.filter(_.kind == ClassBlobType).toIndexedSeq
            val mismatch = index.classes.indices.find { i =>
              val c = index.classes(i)
              i >= classBlobs.size || classBlobs(i).length != c.layout.bytes ||
              !classBlobs(i).properties.get("column").contains(c.column) ||
              !classBlobs(i).properties.get("blocks").contains(c.blocks.toString)
            }
            if (classBlobs.size != index.classes.size) Left(s"${classBlobs.size} class blobs for ${index.classes.size} classes")
            else mismatch.map(i => s"class blob $i does not match the index's class ${index.classes(i)}")
              .toLeft(OpenDigest(footer, index, classBlobs))
          }
        case Seq(blob) => Left(s"the index starts at ${blob.offset}, before the ${tail.length} bytes read")
        case found => Left(s"${found.size} digest indexes")
      }
    }

  /** The CRC-32 of `length` bytes of a class blob from `offset`: a row's, as its class states it. */
  def rowChecksum(bytes: Array[Byte], offset: Int, length: Int): Int = {
    val crc = new java.util.zip.CRC32()
    crc.update(bytes, offset, length)
    crc.getValue.toInt
  }

  /** Little-endian bytes of `words`, as a filter's bitset is stored. */
  def bytes(words: Array[Int]): Array[Byte] = {
    val buf = ByteBuffer.allocate(words.length * 4).order(ByteOrder.LITTLE_ENDIAN)
    buf.asIntBuffer().put(words)
    buf.array()
  }

  /** The words of little-endian `bytes` (a row read from a class blob). */
  def words(bytes: Array[Byte]): Array[Int] = {
    val out = new Array[Int](bytes.length / 4)
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out)
    out
  }
}
