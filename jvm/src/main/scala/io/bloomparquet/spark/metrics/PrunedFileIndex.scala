package io.bloomparquet.spark.metrics

import io.bloomparquet.compat.ComputedKeySets
import io.bloomparquet.options.SparkPushdown
import org.apache.spark.sql.execution.datasources.FileIndex

/**
 * A V1 file index whose files bloomparquet cut while planning (a Delta Lake read): Spark's V1 scan
 * has no custom metrics, so the pruning's counters travel with the index, which `scan_metrics`
 * finds in the executed plan. Files some of whose row groups were pruned (`filesCut` of them at
 * planning) are listed with those row groups (`KeptRowGroups.OfListedFile`), which the format
 * `sql.PrunedV1Scans` gives the scan reads alone (gaps of at most `gapBytes` are read),
 * with the filters `sparkPushdown` lets Spark's reader have. An index that `prunesAtRuntime`
 * prunes again when its scan lists its files, with the key sets of the dynamic pruning filters
 * above its scan (`withKeySets`, `compat.DynamicKeySets`): its counts and row groups are final
 * only after.
 */
trait PrunedFileIndex {
  def pruningCounts: PruningCounts
  def filesCut: Int
  def prunesAtRuntime: Boolean
  /** This index for one physical scan, pruning with the key sets Spark puts in `keySets` by its listing. */
  def withKeySets(keySets: ComputedKeySets): FileIndex
  /** A file of the index, to ask the scan's format whether it splits files. */
  def anyFile: Option[String]
  def gapBytes: Long
  def sparkPushdown: SparkPushdown
}
