package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.{JudgedVersion, PlanningPool}
import io.bloomparquet.spark.metrics.BloomMetrics
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.metric.CustomTaskMetric
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.apache.spark.util.SerializableConfiguration

/**
 * The tasks of a scan that prunes. In plan mode its splits hold only the row groups the footer read while
 * planning left in play. A task about to read a file cut that way first checks it is still the
 * version planning judged (one status call, the version [[io.bloomparquet.planning.FileVersion]]
 * offers): a file replaced since — a reused DataFrame's second action, a file rewritten while the
 * query ran — is read whole by the task holding its first kept split, and not at all by the
 * others. Files planning pruned entirely have no task to check them: the user guide says so.
 * Files planning kept unread ([[TaskJudging]]: every file with `bloom.mode=task`, else those the
 * table's bloom digest kept) are judged here, from the footer the task reads.
 */
final class PlannedReaderFactory(delegate: PartitionReaderFactory, conf: Broadcast[SerializableConfiguration],
    settings: ReadSettings) extends PartitionReaderFactory {

  /** The partition to read, and its task's counters: files read whole as they changed, and its own judging. */
  private def planned(partition: InputPartition): (InputPartition, Array[CustomTaskMetric]) = partition match {
    case JudgedPartition(fp, judged, inTask) =>
      // One status call per judged file of the partition, however many of its splits the partition holds.
      val now = judged.keys.map(p => p -> JudgedVersion.now(p, conf.value.value)).toMap
      val (toJudge, cutOrWhole) = fp.files.toSeq.partition(s => inTask.exists(_.judges(s)))
      val checked = cutOrWhole.map(check(_, judged, now))
      // Files the digest kept, as many read at once as planning would have read. Each is keyed by the version
      // its file system gives now, not the one planning's listing gave: a judgement this JVM cached of another
      // version must not decide what Spark's reader reads of this one.
      val judgedHere = inTask.filter(_ => toJudge.nonEmpty).map(t =>
        SplitPruning.prune(toJudge, t.predicate, conf.value.value, settings, site(t, toJudge)))
      val splits = checked.flatMap(_._1) ++ judgedHere.toSeq.flatMap(_.kept)
      val changed = BloomMetrics.taskMetric(BloomMetrics.FilesChangedSincePlanning, checked.count(_._2).toLong)
      val judgedFiles = BloomMetrics.taskMetric(BloomMetrics.FilesJudgedInTasks, toJudge.map(_.toPath).distinct.size.toLong)
      (SparkCompat.newFilePartition(fp.index, splits.toArray),
        judgedHere.fold(Array.empty[CustomTaskMetric])(_.counts.toTaskMetrics) :+ changed :+ judgedFiles)
    case other => (other, nothingOfItsOwn)
  }

  private def site(judging: TaskJudging, files: Seq[PartitionedFile]): PruningSite.InTask =
    if (judging.everyFile) PruningSite.InTaskOneAtATime
    else PruningSite.InTask(PlanningPool.parallelism(settings.bloom.planningParallelism, files.headOption.map(_.toPath.toString)))

  private def nothingOfItsOwn: Array[CustomTaskMetric] =
    Array(BloomMetrics.FilesChangedSincePlanning, BloomMetrics.FilesJudgedInTasks).map(BloomMetrics.taskMetric(_, 0L))

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
