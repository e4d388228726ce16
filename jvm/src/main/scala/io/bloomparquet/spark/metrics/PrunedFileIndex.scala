package io.bloomparquet.spark.metrics

import io.bloomparquet.options.SparkPushdown
import io.bloomparquet.spark.KeptRowGroups

/**
 * A V1 file index whose files bloomparquet cut while planning (a Delta Lake read): Spark's V1 scan
 * has no custom metrics, so the pruning's counters travel with the index, which `scan_metrics`
 * finds in the executed plan. Files some of whose row groups were pruned are in `keptRowGroups`,
 * by path, which `sql.PrunedV1Scans` gives the scan's tasks (gaps of at most `gapBytes` are read),
 * with the filters `sparkPushdown` lets Spark's reader have.
 */
trait PrunedFileIndex {
  def pruningCounts: PruningCounts
  def keptRowGroups: Map[String, KeptRowGroups]
  def gapBytes: Long
  def sparkPushdown: SparkPushdown
}
