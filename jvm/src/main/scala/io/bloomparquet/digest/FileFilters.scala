package io.bloomparquet.digest

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.planning.FileVersion
import io.bloomparquet.pruning.{CompiledPredicate, ImpossibleFilter}
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFolding, FilterFound}
import io.bloomparquet.schema.FileColumn
import io.bloomparquet.tail.FooterTail
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.parquet.hadoop.util.HadoopInputFile

/**
 * One filter of a file for a digest: the column as the digest was asked for it, the row group, the
 * leaf it resolved to in this file and the leaf's Parquet type ([[DigestClass]]), its right-sized words.
 */
final case class RowGroupFilter(column: String, rowGroup: Int, leaf: Seq[String], parquetType: String, words: Array[Int])

/**
 * What one data file gives a digest, read from its footer and filters only: the file as covered
 * (version and row groups), its filters on the digested columns right-sized (those planning would
 * trust: not a leaf sharing its dotted path with another, not a filter excluding its chunk's own
 * min or max), the bytes fetched, and the filters' own bytes. `skipped` says why a file gives nothing (not a plaintext Parquet file,
 * unreadable): planning judges such a file on its own, as every file the digest does not cover.
 */
final case class FileFilters(file: DigestFile, filters: Seq[RowGroupFilter], bytesRead: Long, filterBytes: Long,
    skipped: Option[String])

object FileFilters {

  /** Bytes of the first read of a file's end: footers of a few row groups, and filters written beside them. */
  val SpeculativeTailBytes: Long = 64 << 10

  /**
   * Reads the footer and the filters of `columns` (resolved as Spark resolves column names,
   * `caseSensitive` as the session) of the file `status`, listed as `path` relative to the table's
   * root. A column the file lacks, or a chunk without a usable filter, gives no entry. Never throws.
   */
  def read(status: FileStatus, path: String, columns: Seq[String], caseSensitive: Boolean, fpp: Double,
      conf: Configuration): FileFilters = {
    val bare = DigestFile(path, status.getLen, status.getModificationTime, None, IndexedSeq.empty)
    def skipped(why: String, bytes: Long) = FileFilters(bare, Nil, bytes, 0, Some(why))
    // The version planning compares with the file's before trusting its entries (no status call
    // where the listing's status already says it: an etag).
    def version = FileVersion.of(status.getPath.getFileSystem(conf), status.getPath, status)
    try version match {
        case FileVersion.Unknown => skipped("its file system's version of it could not be had", 0)
        case known => readVersioned(status, bare.copy(version = Some(known).collect { case FileVersion.Version(v) => v }),
            columns, caseSensitive, fpp, conf)
      }
    catch { case NonFatal(e) => skipped(s"unreadable: $e", 0) }
  }

  private def readVersioned(status: FileStatus, bare: DigestFile, columns: Seq[String], caseSensitive: Boolean,
      fpp: Double, conf: Configuration): FileFilters = {
    def skipped(why: String, bytes: Long) = FileFilters(bare, Nil, bytes, 0, Some(why))
    val in = HadoopInputFile.fromStatus(status, conf).newStream()
    try FooterTail.read(in, status.getLen, SpeculativeTailBytes) match {
        case None => skipped("no plaintext Parquet footer", 0)
        case Some(tail) =>
          val schema = tail.footer.getFileMetaData.getSchema
          // Leaves whose filters planning does not trust have no entry: parquet-java keys a row group's
          // filters by dotted path, so two leaves sharing one may hold each other's.
          val shared = CompiledPredicate.sharedDottedPaths(schema)
          val leaves = columns.flatMap { c =>
            FileColumn.dotted(c).leaf(schema, caseSensitive).toOption
              .filterNot(leaf => shared.contains(leaf.index))
              .map(leaf => (c, leaf, DigestClass.typeText(leaf.primitive)))
          }
          val blocks = tail.footer.getBlocks.asScala.toIndexedSeq
          var bytes = tail.bytesRead
          var filterBytes = 0L
          val filters = for {
            (block, rg) <- blocks.zipWithIndex
            (column, leaf, parquetType) <- leaves
            chunk = block.getColumns.get(leaf.index)
            words <- BloomFilterReader.read(tail.stream, status.getLen, chunk) match {
              // A filter that excludes its chunk's own min or max is corrupt, as planning judges it.
              case FilterFound.Loaded(f, n) if ImpossibleFilter.reason(chunk.getPrimitiveType, chunk.getStatistics, f).nonEmpty =>
                bytes += n
                None
              case FilterFound.Loaded(f, n) =>
                bytes += n
                filterBytes += f.numBytes
                Some(FilterFolding.rightSized(f.words, fpp))
              case other =>
                bytes += other.bytesRead
                None
            }
          } yield RowGroupFilter(column, rg, leaf.path, parquetType, words)
          val rowGroups = blocks.map(b => DigestRowGroup(b.getStartingPos, b.getCompressedSize, b.getRowCount))
          FileFilters(bare.copy(rowGroups = rowGroups), filters, bytes, filterBytes, None)
      }
    finally in.close()
  }
}
