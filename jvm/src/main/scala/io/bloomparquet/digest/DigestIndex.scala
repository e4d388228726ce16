package io.bloomparquet.digest

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.{BufferUnderflowException, ByteBuffer, ByteOrder}

import io.bloomparquet.planning.FileVersion
import org.apache.parquet.schema.{PrimitiveType, Types}

/** A row group of a digested file: its bytes (what a split of it reads) and its rows. */
final case class DigestRowGroup(start: Long, length: Long, rows: Long)

/**
 * A data file as a digest covers it: its path relative to the table's root, the version its
 * filters were read from (length, modification time, and what else its file system offers to tell
 * versions apart: `planning.FileVersion`, an etag, an inode and change time, a file id), and its
 * row groups. An entry holds only for this version of the file.
 */
final case class DigestFile(path: String, length: Long, modificationTime: Long, version: Option[String],
    rowGroups: IndexedSeq[DigestRowGroup]) {

  /**
   * Whether this entry holds for the file as listed now: the same length and modification time, and
   * the same version its file system offers (none where it offers none; never an unknown one),
   * asked for only where length and modification time agree.
   */
  def holdsFor(length: Long, modificationTime: Long, now: => FileVersion.Lookup): Boolean =
    this.length == length && this.modificationTime == modificationTime &&
      (now match {
        case FileVersion.Version(v) => version.contains(v)
        case FileVersion.NotOffered => version.isEmpty
        case FileVersion.Unknown => false
      })
}

/** An entry of a size class: row group `rowGroup` of file `file` (indexes into the digest's files). */
final case class DigestEntry(file: Int, rowGroup: Int)

/**
 * A size class of one column: its entries' filters all have `blocks` blocks and are stored
 * block-major in a blob of their own ([[BlockMajorClass]]); entry i is block i of each row. Its
 * entries' files all store the column as the leaf `leaf` (the path the column, as the digest was
 * asked for it, resolved to in them) of type `parquetType` ([[DigestClass.typeText]]), which
 * decides how a value is hashed: files that store a column differently fall in different classes.
 * `rowChecksums`: the CRC-32 of each row's bytes, checked on every row planning reads (a flipped
 * bit in a filter would otherwise rule out a row group that holds the value).
 */
final case class DigestClass(column: String, leaf: Seq[String], parquetType: String, blocks: Int,
    entries: IndexedSeq[DigestEntry], rowChecksums: IndexedSeq[Int]) {
  def layout: BlockMajorClass = BlockMajorClass(blocks, entries.size)
}

object DigestClass {

  /**
   * A leaf's type as Parquet's schema text writes it, named `v`, without field id or repetition
   * (`optional int64 v (TIMESTAMP(MICROS,true))`): what hashing a value for it needs, read back
   * with parquet-java's schema parser.
   */
  def typeText(t: PrimitiveType): String = {
    val builder = Types.optional(t.getPrimitiveTypeName).as(t.getLogicalTypeAnnotation)
    val sized = if (t.getPrimitiveTypeName == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) builder.length(t.getTypeLength)
    else builder
    sized.named("v").toString
  }
}

/**
 * What planning reads of a digest before any filter bit: the files it covers and, per column, its
 * size classes (the entries, not their blocks), and the false-positive bound entries were folded to.
 * Stored as the digest's last blob, so one read of the file's tail brings it with the footer.
 */
final case class DigestIndex(files: IndexedSeq[DigestFile], classes: IndexedSeq[DigestClass], fpp: Double) {

  /** The row groups a column's filters cover: a row group without a filter on it is never pruned by the digest. */
  def covered(column: String): Set[DigestEntry] = classes.filter(_.column == column).flatMap(_.entries).toSet

  // Each file's first row group in one numbering of every row group of every file: planning judges
  // row groups as bits of one set (a digest can hold a million) rather than as objects.
  private lazy val firstRowGroup: Array[Int] = files.iterator.map(_.rowGroups.size).scanLeft(0)(_ + _).toArray

  /** The row groups of all files together. */
  def rowGroupCount: Int = firstRowGroup(files.size)

  /** Row group `rowGroup` of file `file` in that numbering. */
  def rowGroupAt(file: Int, rowGroup: Int): Int = firstRowGroup(file) + rowGroup

  /** File `file`'s row groups in that numbering. */
  def rowGroupsOf(file: Int): Range = firstRowGroup(file) until firstRowGroup(file + 1)
}

object DigestIndex {
  val BlobType: String = "bloomparquet-digest-index-v1"
  private val Version = 1

  /**
   * The index as its blob holds it: the length of the encoded index (8 bytes), then the encoded
   * index deflated (paths written by one job share most of their characters). Encoded: little-endian,
   * strings as a 4-byte length and UTF-8 bytes.
   */
  def encode(index: DigestIndex): Array[Byte] = deflated(encoded(index))

  private def encoded(index: DigestIndex): Array[Byte] = {
    val out = new java.io.ByteArrayOutputStream()
    val w = new LittleEndian(out)
    w.int(Version)
    w.double(index.fpp)
    w.int(index.files.size)
    index.files.foreach { f =>
      w.string(f.path)
      w.long(f.length)
      w.long(f.modificationTime)
      w.string(f.version.getOrElse(""))
      w.int(f.rowGroups.size)
      f.rowGroups.foreach { rg => w.long(rg.start); w.long(rg.length); w.long(rg.rows) }
    }
    w.int(index.classes.size)
    index.classes.foreach { c =>
      w.string(c.column)
      w.int(c.leaf.size)
      c.leaf.foreach(w.string)
      w.string(c.parquetType)
      w.int(c.blocks)
      w.int(c.entries.size)
      c.entries.foreach { e => w.int(e.file); w.int(e.rowGroup) }
      w.int(c.rowChecksums.size)
      c.rowChecksums.foreach(w.int)
    }
    out.toByteArray
  }

  /** The index a blob holds, or why it is not one this reader knows (another version, truncated, inconsistent). */
  def decode(blob: Array[Byte]): Either[String, DigestIndex] = inflated(blob).flatMap(decodeEncoded)

  /** An index no digest of ours comes near: a larger stated length is damage. */
  private val MaxEncodedBytes = 1L << 30

  private def deflated(bytes: Array[Byte]): Array[Byte] = {
    val out = new java.io.ByteArrayOutputStream()
    out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(bytes.length.toLong).array())
    val z = new java.util.zip.DeflaterOutputStream(out)
    z.write(bytes)
    z.close()
    out.toByteArray
  }

  private def inflated(blob: Array[Byte]): Either[String, Array[Byte]] =
    if (blob.length < 8) Left(s"digest index of ${blob.length} bytes")
    else {
      val length = ByteBuffer.wrap(blob, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong
      // Deflate expands at most ~1032 times: a stated length beyond that is damage, not data.
      if (length < 0 || length > MaxEncodedBytes || length > (blob.length - 8) * 1032L + 64)
        Left(s"digest index states $length bytes")
      else {
        val inflater = new java.util.zip.Inflater()
        try {
          inflater.setInput(blob, 8, blob.length - 8)
          val out = new Array[Byte](length.toInt)
          var n = 0
          while (n < out.length && !inflater.finished() && !inflater.needsInput()) n += inflater.inflate(out, n, out.length - n)
          if (n != out.length || !inflater.finished() || inflater.getRemaining != 0)
            Left(s"digest index inflates to other than its $length bytes")
          else Right(out)
        } catch { case e: java.util.zip.DataFormatException => Left(s"digest index does not inflate: ${e.getMessage}") }
        finally inflater.end()
      }
    }

  private def decodeEncoded(blob: Array[Byte]): Either[String, DigestIndex] =
    try {
      val in = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN)
      val version = in.getInt()
      if (version != Version) Left(s"digest index version $version; this reader knows $Version")
      else {
        val fpp = in.getDouble()
        val files = IndexedSeq.fill(count(in, 8)) {
          val path = string(in)
          val length = in.getLong()
          val mtime = in.getLong()
          val fileVersion = Some(string(in)).filter(_.nonEmpty)
          DigestFile(path, length, mtime, fileVersion,
            IndexedSeq.fill(count(in, 24))(DigestRowGroup(in.getLong(), in.getLong(),
                in.getLong())))
        }
        val classes = IndexedSeq.fill(count(in, 24)) {
          val column = string(in)
          val leaf = Seq.fill(count(in, 4))(string(in))
          val parquetType = string(in)
          val blocks = in.getInt()
          val entries = IndexedSeq.fill(count(in, 8))(DigestEntry(in.getInt(), in.getInt()))
          DigestClass(column, leaf, parquetType, blocks, entries, IndexedSeq.fill(count(in, 4))(in.getInt()))
        }
        val index = DigestIndex(files, classes, fpp)
        if (in.hasRemaining) Left(s"${in.remaining} bytes after the digest index")
        else consistency(index).toLeft(index)
      }
    } catch {
      case e @ (_: BufferUnderflowException | _: IllegalArgumentException) => Left(s"truncated digest index: $e")
    }

  /** Why an index that parsed is still unusable, if it is. */
  private def consistency(index: DigestIndex): Option[String] = {
    val badClass = index.classes.find(c => c.blocks < 1 || c.entries.isEmpty || c.leaf.isEmpty || c.rowChecksums.size != c.blocks)
    val badEntry = index.classes.iterator.flatMap(c => c.entries.iterator.map(c -> _)).find { case (_, e) =>
      e.file < 0 || e.file >= index.files.size || e.rowGroup < 0 || e.rowGroup >= index.files(e.file).rowGroups.size
    }
    badClass.map(c => s"class of ${c.column} with ${c.blocks} blocks, ${c.entries.size} entries and ${c.rowChecksums.size} row checksums")
      .orElse(badEntry.map { case (c, e) => s"entry $e of ${c.column} names no row group of the index" })
      .orElse(Some(s"false-positive bound ${index.fpp}").filterNot(_ => index.fpp > 0 && index.fpp < 1))
  }

  /** A count read from the blob, checked against the bytes left (each item at least `minBytes`). */
  private def count(in: ByteBuffer, minBytes: Int): Int = {
    val n = in.getInt()
    if (n < 0 || n.toLong * minBytes > in.remaining) throw new IllegalArgumentException(s"count $n with ${in.remaining} bytes left")
    n
  }

  private def string(in: ByteBuffer): String = {
    val n = count(in, 1)
    val bytes = new Array[Byte](n)
    in.get(bytes)
    new String(bytes, UTF_8)
  }

  private final class LittleEndian(out: java.io.OutputStream) {
    private val buf = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
    def int(v: Int): Unit = { buf.clear(); buf.putInt(v); out.write(buf.array(), 0, 4) }
    def long(v: Long): Unit = { buf.clear(); buf.putLong(v); out.write(buf.array(), 0, 8) }
    def double(v: Double): Unit = long(java.lang.Double.doubleToLongBits(v))
    def string(s: String): Unit = { val b = s.getBytes(UTF_8); int(b.length); out.write(b) }
  }
}
