package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.pruning.BloomPredicate
import io.bloomparquet.spark.metrics.PruningCounts
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.metric.CustomTaskMetric
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.execution.datasources.FilePartition
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.apache.spark.util.SerializableConfiguration

/**
 * In-task pruning (`bloom.mode=task`): the driver plans Spark's usual splits
 * and each task cuts its own splits down before Spark's reader opens them,
 * so planning never reads a footer however many files there are.
 */
final class TaskPruningReaderFactory(delegate: PartitionReaderFactory, predicate: BloomPredicate,
    conf: Broadcast[SerializableConfiguration], settings: ReadSettings)
    extends PartitionReaderFactory {

  private def pruned(partition: InputPartition): (InputPartition, PruningCounts) = partition match {
    case fp: FilePartition =>
      val PrunedSplits(kept, counts, _, _) =
        SplitPruning.prune(fp.files.toSeq, predicate, conf.value.value, settings, PruningSite.InTaskOneAtATime)
      (SparkCompat.newFilePartition(fp.index, kept.toArray), counts)
    case other => (other, PruningCounts())
  }

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] = {
    val (p, counts) = pruned(partition)
    new CountingReader(delegate.createReader(p), counts.toTaskMetrics)
  }

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] = {
    val (p, counts) = pruned(partition)
    new CountingReader(delegate.createColumnarReader(p), counts.toTaskMetrics)
  }

  override def supportColumnarReads(partition: InputPartition): Boolean = delegate.supportColumnarReads(partition)
}

/** Spark's reader plus this task's own counters in its custom metrics. */
private[spark] final class CountingReader[T](reader: PartitionReader[T], counts: Array[CustomTaskMetric])
    extends PartitionReader[T] {
  override def next(): Boolean = reader.next()
  override def get(): T = reader.get()
  override def close(): Unit = reader.close()
  override def currentMetricsValues(): Array[CustomTaskMetric] = reader.currentMetricsValues() ++ counts
}
