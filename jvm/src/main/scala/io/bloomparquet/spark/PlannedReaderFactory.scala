package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.{JudgedVersion, PlanningPool}
import io.bloomparquet.pruning.BloomPredicate
import io.bloomparquet.spark.metrics.BloomMetrics
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.metric.CustomTaskMetric
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.execution.datasources.{FilePartition, PartitionedFile}
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.apache.spark.util.SerializableConfiguration

/**
 * The tasks of a scan that prunes. In plan mode its splits hold only the row groups the footer read while
 * planning left in play. A task about to read a file cut that way first checks it is still the
 * version planning judged (one status call, the version [[io.bloomparquet.planning.FileVersion]]
 * offers): a file replaced since — a reused DataFrame's second action, a file rewritten while the
 * query ran — is read whole by the task holding its first kept split, and not at all by the
 * others. Files planning pruned entirely have no task to check them: the user guide says so.
 * Files planning kept unread are judged here, from the footer the task reads, before Spark's reader
 * opens them: those the table's bloom digest kept ([[TaskJudging]], in their partitions), or with
 * `bloom.mode=task` every file, with `judgeEveryFile` (static: it travels once, in the factory).
 */
final class PlannedReaderFactory(delegate: PartitionReaderFactory, conf: Broadcast[SerializableConfiguration],
    settings: ReadSettings, judgeEveryFile: Option[BloomPredicate]) extends PartitionReaderFactory {

  /** The partition to read, and its task's counters: files read whole as they changed, and its own judging. */
  private def planned(partition: InputPartition): (InputPartition, Array[CustomTaskMetric]) = partition match {
    case JudgedPartition(fp, judged, inTask) =>
      // One status call per judged file of the partition, however many of its splits the partition holds.
      val now = judged.keys.map(p => p -> JudgedVersion.now(p, conf.value.value)).toMap
      val (toJudge, cutOrWhole) = fp.files.toSeq.partition(s => inTask.exists(_.judges(s)))
      val checked = cutOrWhole.map(check(_, judged, now))
      // Files the digest kept, as many read at once as planning would have read.
      val atOnce = PlanningPool.parallelism(settings.bloom.planningParallelism, toJudge.headOption.map(_.toPath.toString))
      val (kept, judging) = inTask.fold((Seq.empty[PartitionedFile], Array.empty[CustomTaskMetric]))(t =>
        judgeHere(toJudge, t.predicate, PruningSite.InTask(atOnce)))
      val changed = BloomMetrics.taskMetric(BloomMetrics.FilesChangedSincePlanning, checked.count(_._2).toLong)
      (SparkCompat.newFilePartition(fp.index, (checked.flatMap(_._1) ++ kept).toArray), judging :+ changed)
    case fp: FilePartition if judgeEveryFile.isDefined =>
      // A task's core is its parallelism: one file at a time.
      val (kept, judging) = judgeHere(fp.files.toSeq, judgeEveryFile.get, PruningSite.InTaskOneAtATime)
      (SparkCompat.newFilePartition(fp.index, kept.toArray),
        judging :+ BloomMetrics.taskMetric(BloomMetrics.FilesChangedSincePlanning, 0L))
    case other =>
      (other, Array(BloomMetrics.FilesChangedSincePlanning, BloomMetrics.FilesJudgedInTasks).map(BloomMetrics.taskMetric(_, 0L)))
  }

  /**
   * What this task keeps of `files`, judged here, and its counters. Each file is keyed by the version its
   * file system gives now, not the one planning's listing gave: a judgement this JVM cached of another
   * version must not decide what Spark's reader reads of this one.
   */
  private def judgeHere(files: Seq[PartitionedFile], predicate: BloomPredicate, site: PruningSite.InTask)
      : (Seq[PartitionedFile], Array[CustomTaskMetric]) = {
    // A file in several splits, judged by each of their tasks, is counted once: by the task holding its first split.
    val judged = BloomMetrics.taskMetric(BloomMetrics.FilesJudgedInTasks, files.count(_.start == 0).toLong)
    if (files.isEmpty) (Seq.empty, Array(judged))
    else {
      val pruned = SplitPruning.prune(files, predicate, conf.value.value, settings, site)
      (pruned.kept, pruned.counts.toTaskMetrics :+ judged)
    }
  }

  /** What to read of `split` (its file's status now in `now`), and whether it is its changed file read whole. */
  private def check(split: PartitionedFile, judged: Map[String, JudgedFile], now: Map[String, Option[JudgedVersion]])
      : (Option[PartitionedFile], Boolean) = {
    val path = split.toPath.toString
    judged.get(path) match {
      case None => (Some(split), false)
      case Some(j) => now(path) match {
          case Some(v) if v != j.judged =>
            if (split.start == j.firstStart) (Some(SparkCompat.wholeFile(split, v.length, v.modificationTime)), true)
            else (None, false)
          // Unchanged, or gone: Spark's reader meets a missing file as it would (spark.sql.files.ignoreMissingFiles).
          case _ => (Some(split), false)
        }
    }
  }

  private def counted[T](partition: InputPartition, open: InputPartition => PartitionReader[T]): PartitionReader[T] = {
    val (p, counts) = planned(partition)
    new CountingReader(open(p), counts)
  }

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    counted(partition, delegate.createReader)

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] =
    counted(partition, delegate.createColumnarReader)

  override def supportColumnarReads(partition: InputPartition): Boolean = delegate.supportColumnarReads(partition match {
    case JudgedPartition(files, _, _) => files
    case other => other
  })
}
