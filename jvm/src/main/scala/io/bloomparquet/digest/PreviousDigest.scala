package io.bloomparquet.digest

import scala.util.control.NonFatal

import io.bloomparquet.planning.FileVersion
import org.apache.hadoop.fs.{FileStatus, FileSystem, Path}

/**
 * A table's current digest read whole for a new build: the entries of files it read at the
 * version listed now are kept (their right-sized filters taken back out of the block-major rows)
 * instead of reading those files again, so rebuilding after an append reads only the new files'
 * footers and filters, and one digest replaces the old (no generations to chain).
 */
final class PreviousDigest private (index: DigestIndex, classWords: IndexedSeq[Array[Int]]) {
  private val byPath = index.files.iterator.map(_.path).zipWithIndex.toMap
  private val filtersOf: Map[Int, Seq[RowGroupFilter]] = index.classes.indices.flatMap { i =>
    val c = index.classes(i)
    c.entries.indices.map { e =>
      val entry = c.entries(e)
      entry.file -> RowGroupFilter(c.column, entry.rowGroup, c.leaf, c.parquetType,
        BlockMajorClass.entryWords(classWords(i), c.layout, e))
    }
  }.groupBy(_._1).map { case (f, fs) => f -> fs.map(_._2) }

  /** The file at `path` (relative to the root) as the digest read it, if that is the version `status` and `version` describe. */
  def reusable(path: String, status: FileStatus, version: FileVersion.Lookup): Option[FileFilters] =
    byPath.get(path).filter(f => index.files(f).holdsFor(status.getLen, status.getModificationTime, version))
      .map(f => FileFilters(index.files(f), filtersOf.getOrElse(f, Nil), bytesRead = 0, filterBytes = 0, skipped = None))

  def files: Int = index.files.size
}

object PreviousDigest {

  /**
   * The current digest of the table at `root`, read whole, where it was built for `columns` at bound
   * `fpp` (another build's entries would answer for other columns or at another rate); None where
   * there is none, or it cannot be trusted (the new build then reads every file).
   */
  def load(fs: FileSystem, root: Path, columns: Seq[String], fpp: Double): Option[PreviousDigest] =
    TableDigest.openAsItIsNow(fs, root, tailGuess = Int.MaxValue - 8) match {
      case TableDigest.Opened(digest, _, whole, 0L, _, _)
          if digest.footer.properties.get(DigestJob.ColumnsProperty).contains(columns.mkString(",")) &&
            digest.index.fpp == fpp =>
        try {
          val words = digest.index.classes.indices.map { i =>
            val blob = digest.classBlobs(i)
            val bytes = java.util.Arrays.copyOfRange(whole, blob.offset.toInt, (blob.offset + blob.length).toInt)
            val stated = digest.index.classes(i)
            val rowBytes = stated.layout.rowBytes.toInt
            require(
              (0 until stated.blocks).forall(r =>
                BloomDigest.rowChecksum(bytes, r * rowBytes, rowBytes) ==
                  stated.rowChecksums(r)), s"class $i does not match its checksums")
            BloomDigest.words(bytes)
          }
          Some(new PreviousDigest(digest.index, words))
        } catch { case NonFatal(_) => None }
      case _ => None
    }
}
