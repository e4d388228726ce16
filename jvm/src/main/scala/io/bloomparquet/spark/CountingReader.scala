package io.bloomparquet.spark

import org.apache.spark.sql.connector.metric.CustomTaskMetric
import org.apache.spark.sql.connector.read.PartitionReader

/** Spark's reader plus this task's own counters in its custom metrics. */
private[spark] final class CountingReader[T](reader: PartitionReader[T], counts: Array[CustomTaskMetric])
    extends PartitionReader[T] {
  override def next(): Boolean = reader.next()
  override def get(): T = reader.get()
  override def close(): Unit = reader.close()
  override def currentMetricsValues(): Array[CustomTaskMetric] = reader.currentMetricsValues() ++ counts
}
