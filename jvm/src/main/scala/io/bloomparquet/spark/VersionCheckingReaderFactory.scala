package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.planning.JudgedVersion
import io.bloomparquet.spark.metrics.BloomMetrics
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.apache.spark.util.SerializableConfiguration

/**
 * Plan mode's splits hold only the row groups the footer read while planning left in play. A
 * task about to read a file cut that way first checks it is still the version planning judged
 * (one status call, the version [[io.bloomparquet.planning.FileVersion]] offers): a file replaced since — a reused
 * DataFrame's second action, a file rewritten while the query ran — is read whole by the task
 * holding its first kept split, and not at all by the others. Files planning pruned entirely
 * have no task to check them: the user guide says so.
 */
final class VersionCheckingReaderFactory(delegate: PartitionReaderFactory, conf: Broadcast[SerializableConfiguration])
    extends PartitionReaderFactory {

  /** The partition to read, and how many of its files are read whole as they changed. */
  private def checked(partition: InputPartition): (InputPartition, Long) = partition match {
    case JudgedPartition(fp, judged) =>
      // One status call per judged file of the partition, however many of its splits the partition holds.
      val now = judged.keys.map(p => p -> JudgedVersion.now(p, conf.value.value)).toMap
      val splits = fp.files.map(check(_, judged, now))
      (SparkCompat.newFilePartition(fp.index, splits.flatMap(_._1)), splits.count(_._2).toLong)
    case other => (other, 0L)
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
    val (p, changed) = checked(partition)
    new CountingReader(open(p), Array(BloomMetrics.taskMetric(BloomMetrics.FilesChangedSincePlanning, changed)))
  }

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    counted(partition, delegate.createReader)

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] =
    counted(partition, delegate.createColumnarReader)

  override def supportColumnarReads(partition: InputPartition): Boolean = delegate.supportColumnarReads(partition match {
    case JudgedPartition(files, _) => files
    case other => other
  })
}
