package io.bloomparquet.spark.metrics

/**
 * A V1 file index whose files bloomparquet cut while planning (a Delta Lake read): Spark's V1 scan
 * has no custom metrics, so the pruning's counters travel with the index, which `scan_metrics`
 * finds in the executed plan.
 */
trait PrunedFileIndex {
  def pruningCounts: PruningCounts
}
