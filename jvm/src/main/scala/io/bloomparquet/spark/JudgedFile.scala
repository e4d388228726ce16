package io.bloomparquet.spark

import io.bloomparquet.planning.{FileKey, JudgedVersion, PrunedFiles}
import io.bloomparquet.pruning.BloomPredicate
import io.bloomparquet.spark.metrics.PruningCounts
import org.apache.spark.sql.connector.read.InputPartition
import org.apache.spark.sql.execution.datasources.{FilePartition, PartitionedFile}

/**
 * What [[SplitPruning]] made of Spark's splits: the splits kept, its counts, the files it cut, and
 * the files it kept unread for their tasks to judge.
 */
final case class PrunedSplits(kept: Seq[PartitionedFile], counts: PruningCounts, judged: Map[String, JudgedFile],
    inTask: Option[TaskJudging])

/**
 * Files planning kept unread (by path: the table's bloom digest kept them, and
 * `bloom.digestSurvivors=task`), which the tasks reading them judge with `predicate` before Spark's
 * reader opens them, as `bloom.mode=task` does every file.
 */
final case class TaskJudging(paths: Set[String], predicate: BloomPredicate) {
  def judges(split: PartitionedFile): Boolean = paths(split.toPath.toString)
}

/**
 * A file whose splits were cut from the footer planning read: the version planning judged and
 * the start of its first kept split, whose task reads the file whole if it is another version by then.
 */
final case class JudgedFile(judged: JudgedVersion, firstStart: Long)

/** One of Spark's splits of `file` and the splits pruning made of it (itself, when it kept it as it was). */
final case class CutSplit(split: PartitionedFile, file: FileKey, became: Seq[PartitionedFile]) {
  def changed: Boolean = became.map(s => (s.start, s.length)) != Seq((split.start, split.length))
}

/**
 * A partition holding splits planning cut, with those files' [[JudgedFile]]s, or splits of files
 * planning left to its task to judge ([[TaskJudging]]): its task checks the former and judges the
 * latter before it reads ([[PlannedReaderFactory]]). What a task needs travels in its partition, so
 * a scan re-planned by runtime filters hands out new ones.
 */
final case class JudgedPartition(files: FilePartition, judged: Map[String, JudgedFile], inTask: Option[TaskJudging])
    extends InputPartition {
  override def preferredLocations(): Array[String] = files.preferredLocations()
}

object JudgedPartition {

  /** `partition`, with what its task checks or judges of its splits' files (itself when nothing). */
  def of(partition: FilePartition, judged: Map[String, JudgedFile], inTask: Option[TaskJudging]): InputPartition = {
    val paths = partition.files.iterator.map(_.toPath.toString).toSet
    val mine = paths.flatMap(p => judged.get(p).map(p -> _)).toMap
    val mineInTask = inTask.map(t => t.copy(paths = paths.filter(t.paths))).filter(_.paths.nonEmpty)
    if (mine.isEmpty && mineInTask.isEmpty) partition else JudgedPartition(partition, mine, mineInTask)
  }
}

object JudgedFile {

  /** The files among `cut` whose splits changed, by path. */
  def of(cut: Seq[CutSplit], pruned: PrunedFiles): Map[String, JudgedFile] = {
    // Only files with a split kept and a split changed: a lookup over many files prunes most whole.
    val read = cut.iterator.filter(_.became.nonEmpty).map(_.file).toSet
    val changed = cut.iterator.filter(c => read(c.file) && c.changed).map(_.file).toSet
    cut.filter(c => changed(c.file)).groupBy(_.file).map { case (key, splits) =>
      key.path -> JudgedFile(pruned.judged(key), splits.flatMap(_.became.map(_.start)).min)
    }
  }
}
