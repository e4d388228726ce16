package io.bloomparquet.retrofit

import java.util.UUID

import scala.jdk.CollectionConverters._
import scala.util.Try
import scala.util.control.NonFatal

import io.bloomparquet.compat.{ParquetFilterShims, ParquetShims}
import io.bloomparquet.options.BloomColumn
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound, ParquetHash}
import io.bloomparquet.schema.{FileColumn, ParquetLeaf, Unresolved}
import io.bloomparquet.tail.{ChunkBloom, FilterTail, FooterTail}
import io.bloomparquet.write.FilterBuilder
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{ChecksumFileSystem, FileStatus, FileSystem, Path}
import org.apache.parquet.format.FileMetaData
import org.apache.parquet.format.converter.ParquetMetadataConverter
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.MessageType

/** What retrofitting one file did; `target`: where the file with filters went, when not over `path`. */
final case class RetrofitResult(path: String, status: String, columns: Seq[String], chunks: Int,
    filterBytes: Long, fileBytes: Long, seconds: Double, target: Option[String] = None,
    targetModificationTime: Option[Long] = None)

object RetrofitResult {
  val Retrofitted = "retrofitted"
  val Unchanged = "unchanged"
}

/**
 * Adds bloom filters to one existing Parquet file without touching its data:
 * the bytes before the footer (row groups, page indexes, existing filters) are
 * copied unchanged, the new filters follow them, then the footer (the original
 * thrift `FileMetaData` with only the bloom offset/length of the new chunks
 * set, so statistics, page indexes and key-value metadata are kept). The new
 * file is written next to the original under a hidden name, checked, and renamed
 * over it (or, for tables whose files never change, such as Delta's, to a new file
 * beside it); on any failure the temporary file is removed and the original stays.
 */
object RetrofitFile {
  val TempMarker = ".bloomparquet-retrofit-"
  private val CopyBuffer = 1 << 20

  /**
   * `caseSensitive`: the session's `spark.sql.caseSensitive`, which column names follow. `copyTo`: write
   * the file with filters there and leave the original as it is. `skipAbsent`: columns the file does not
   * have are skipped (a table's files written before a column was added), not refused.
   */
  def run(path: Path, conf: Configuration, names: Seq[String], fpp: Double, overwrite: Boolean,
      caseSensitive: Boolean): RetrofitResult =
    run(path, conf, names.map(FileColumn.dotted), fpp, overwrite, caseSensitive, None, skipAbsent = false)

  def run(path: Path, conf: Configuration, names: Seq[FileColumn], fpp: Double, overwrite: Boolean,
      caseSensitive: Boolean, copyTo: Option[Path], skipAbsent: Boolean): RetrofitResult = {
    val started = System.nanoTime()
    def seconds = (System.nanoTime() - started) / 1e9
    // Local files: write without Hadoop's checksum side files (see rename).
    val fs = path.getFileSystem(conf) match {
      case c: ChecksumFileSystem => c.getRawFileSystem
      case other => other
    }
    val status = fs.getFileStatus(path)
    val (fmd, footerStart) = FooterTail.readThrift(fs, status)
    FilterTail.checkNotEncrypted(fmd).left.foreach(e => throw new UnsupportedOperationException(s"$path: $e"))

    // The footer read above, converted: the column reader below need not read and parse it again.
    val footer = new ParquetMetadataConverter().fromParquetMetadata(fmd)
    val schema = footer.getFileMetaData.getSchema
    val columns = names.flatMap(n => resolve(n, schema, caseSensitive, path, skipAbsent)).map(_.descriptor)
    val input = HadoopInputFile.fromStatus(status, conf)
    var reader: ParquetFileReader = null // opened only when there is something to hash
    try {
      val rowGroups = fmd.getRow_groups.asScala.toSeq
      if (rowGroups.isEmpty) return RetrofitResult(path.toString, RetrofitResult.Unchanged, Nil, 0, 0, status.getLen, seconds)
      // (column, its index in each row group, row groups that need a filter)
      val todo = columns.map { c =>
        val idx = FilterTail.columnIndex(fmd, c.getPath.toSeq)
          .getOrElse(throw new IllegalStateException(s"$path: column ${c.getPath.mkString(".")} not in every row group"))
        val rgs = rowGroups.indices.filter { rg =>
          overwrite || !rowGroups(rg).getColumns.get(idx).getMeta_data.isSetBloom_filter_offset
        }
        (c, idx, rgs)
      }.filter(_._3.nonEmpty)
      if (todo.isEmpty)
        return RetrofitResult(path.toString, RetrofitResult.Unchanged, Nil, 0, 0, status.getLen, seconds)

      reader = ParquetShims.openColumns(input, footer, conf, todo.map(_._1))
      val createdBy = footer.getFileMetaData.getCreatedBy
      val blooms = rowGroups.indices.flatMap { rg =>
        val wanted = todo.filter(_._3.contains(rg))
        if (wanted.isEmpty) Nil
        else {
          val pages = reader.readRowGroup(rg)
          wanted.map { case (c, idx, _) =>
            val sink = FilterBuilder(BloomColumn(c.getPath.toSeq, fpp, None))
            ChunkHasher.hashChunk(pages, schema, createdBy, c, sink)
            ChunkBloom(rg, idx, sink.build())
          }
        }
      }
      val written = replace(fs, status, footerStart, fmd, blooms, conf, copyTo)
      // A table format's log names the new file with the time its file system gives it (Delta's add
      // action, which a digest's entry for the file must match).
      val modified = copyTo.map(fs.getFileStatus(_).getModificationTime)
      RetrofitResult(path.toString, RetrofitResult.Retrofitted, todo.map(_._1.getPath.mkString(".")), blooms.size,
        blooms.map(b => b.filter.numBytes.toLong).sum, written, seconds, copyTo.map(_.toString), modified)
    } finally if (reader != null) reader.close()
  }

  /**
   * The leaf `name` denotes (a name that does not parse is taken as one top-level name), checked to take a
   * filter; None for a column the file lacks, with `skipAbsent`.
   */
  private def resolve(column: FileColumn, schema: MessageType, caseSensitive: Boolean, path: Path,
      skipAbsent: Boolean): Option[ParquetLeaf] = {
    def refuse(why: String) = throw new IllegalArgumentException(s"$path: $why")
    val name = column.name
    val resolved = column.leaf(schema, caseSensitive)
    if (skipAbsent && resolved.left.exists(_.isInstanceOf[Unresolved.Missing])) return None
    val leaf = resolved.fold({
        case Unresolved.Ambiguous(_, matches) => refuse(s"column '$name' is ambiguous: ${matches.mkString(", ")}")
        case _: Unresolved.Repeated => refuse(s"column '$name' is inside an array or map; only struct fields are supported")
        case _ => refuse(s"unknown column '$name'; its leaf columns are " +
            schema.getColumns.asScala.map(_.getPath.mkString(".")).mkString(", "))
      }, identity)
    val t = leaf.primitive.getPrimitiveTypeName
    if (!ParquetHash.hasBloomHash(t)) refuse(s"column '$name' is $t, which has no bloom filter")
    Some(leaf)
  }

  /** Writes the new file beside the original, checks it, renames it over the original (or to `copyTo`). Returns its length. */
  private def replace(fs: FileSystem, original: FileStatus, footerStart: Long, fmd: FileMetaData,
      blooms: Seq[ChunkBloom], conf: Configuration, copyTo: Option[Path]): Long = {
    val path = original.getPath
    val tmp = new Path(path.getParent, s".${path.getName}$TempMarker${UUID.randomUUID()}.tmp")
    var done = false
    var tailBytes = 0L
    try {
      val out = fs.create(tmp, false)
      try {
        val in = fs.open(path)
        try {
          val buf = new Array[Byte](CopyBuffer)
          var left = footerStart
          while (left > 0) {
            val n = in.read(buf, 0, math.min(left, buf.length.toLong).toInt)
            if (n < 0) throw new java.io.EOFException(s"$path ended ${left} bytes before its footer")
            out.write(buf, 0, n)
            left -= n
          }
        } finally in.close()
        tailBytes = FilterTail.writeFiltersAndFooter(out, footerStart, fmd, blooms)
      } finally out.close()
      verify(fs, tmp, blooms, conf)
      val now = fs.getFileStatus(path)
      if (now.getLen != original.getLen || now.getModificationTime != original.getModificationTime)
        throw new IllegalStateException(s"$path changed while its filters were built; left as it is")
      rename(fs, tmp, copyTo.getOrElse(path), conf)
      done = true
      footerStart + tailBytes
    } finally {
      if (!done) Try(fs.delete(tmp, false))
    }
  }

  /** The new file's footer parses and every new filter reads back as a valid filter. */
  private def verify(fs: FileSystem, tmp: Path, blooms: Seq[ChunkBloom], conf: Configuration): Unit = {
    val status = fs.getFileStatus(tmp)
    val (fmd, _) = FooterTail.readThrift(fs, status)
    val in = HadoopInputFile.fromStatus(status, conf).newStream()
    try blooms.foreach { b =>
        val md = fmd.getRow_groups.get(b.rowGroup).getColumns.get(b.column).getMeta_data
        BloomFilterReader.read(in, status.getLen, md.getBloom_filter_offset,
          ParquetFilterShims.bloomFilterLength(md).getOrElse(BloomFilterReader.UnknownLength),
          b.filter.kernel) match {
          case FilterFound.Loaded(f, _) if f == b.filter =>
          case other => throw new IllegalStateException(s"$tmp: filter of row group ${b.rowGroup} reads back as $other")
        }
      }
    finally in.close()
  }

  /**
   * Atomic replace: rename(2) for local files, `FileContext.rename(OVERWRITE)`
   * elsewhere (atomic on HDFS; object stores have no atomic rename). A local
   * original's checksum side file (`.name.crc`) is removed first: it would not
   * match the new bytes, and files without one are read unchecked.
   */
  private def rename(fs: FileSystem, tmp: Path, dst: Path, conf: Configuration): Unit = fs.getUri.getScheme match {
    case "file" =>
      val crc = new Path(dst.getParent, s".${dst.getName}.crc")
      if (fs.exists(crc)) fs.delete(crc, false)
      // Qualified: a table may name its files without a scheme (Iceberg's Hadoop catalog on local disk).
      java.nio.file.Files.move(java.nio.file.Paths.get(fs.makeQualified(tmp).toUri),
        java.nio.file.Paths.get(fs.makeQualified(dst).toUri),
        java.nio.file.StandardCopyOption.ATOMIC_MOVE)
    case _ =>
      try {
        org.apache.hadoop.fs.FileContext.getFileContext(dst.toUri, conf)
          .rename(tmp, dst, org.apache.hadoop.fs.Options.Rename.OVERWRITE)
      } catch { case NonFatal(e) => throw new java.io.IOException(s"cannot replace $dst with $tmp: $e", e) }
  }
}
