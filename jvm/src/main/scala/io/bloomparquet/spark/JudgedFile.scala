package io.bloomparquet.spark

import io.bloomparquet.planning.{FileKey, FileOutcome, JudgedVersion}
import io.bloomparquet.spark.metrics.PruningCounts
import org.apache.spark.sql.execution.datasources.PartitionedFile

/** What [[SplitPruning]] made of Spark's splits: the splits kept, its counts, and the files it cut. */
final case class PrunedSplits(kept: Seq[PartitionedFile], counts: PruningCounts, judged: Map[String, JudgedFile])

/**
 * A file whose splits were cut from the footer planning read: the version planning judged and
 * the start of its first kept split, whose task reads the file whole if it is another version by then.
 */
final case class JudgedFile(judged: JudgedVersion, firstStart: Long)

/**
 * The files the scan's current plan cut, for its reader factory, which Spark may make before
 * runtime filters re-plan the scan: the scan sets them each time it hands out its partitions
 * (last after runtime filtering), and tasks get them as serialized with the job.
 */
final class JudgedFiles extends Serializable {
  @volatile private var byPath: Map[String, JudgedFile] = Map.empty
  def set(files: Map[String, JudgedFile]): Unit = byPath = files
  def get(path: String): Option[JudgedFile] = byPath.get(path)
  def isEmpty: Boolean = byPath.isEmpty
}

object JudgedFile {

  /** The files among `cut` (split, its file, the splits it became) whose splits changed, by path. */
  def of(cut: Seq[(PartitionedFile, FileKey, Seq[PartitionedFile])],
      outcomes: Map[FileKey, FileOutcome]): Map[String, JudgedFile] =
    cut.groupBy(_._2).flatMap { case (key, splits) =>
      val changed = splits.exists { case (split, _, became) =>
        became.map(s => (s.start, s.length)) != Seq((split.start, split.length))
      }
      val starts = splits.flatMap(_._3.map(_.start))
      if (!changed || starts.isEmpty) None
      else Some(key.path -> JudgedFile(JudgedVersion(key.length, key.modificationTime, outcomes(key).version), starts.min))
    }
}
