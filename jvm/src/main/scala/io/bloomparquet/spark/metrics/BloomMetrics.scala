package io.bloomparquet.spark.metrics

import org.apache.spark.sql.connector.metric.{CustomMetric, CustomSumMetric, CustomTaskMetric}

// One class per metric: Spark instantiates them by name to aggregate task values.
class FilesTotalMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.FilesTotal
  override def description: String = "bloom: files considered"
}
class FilesPrunedMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.FilesPruned
  override def description: String = "bloom: files skipped"
}
class RowGroupsTotalMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.RowGroupsTotal
  override def description: String = "bloom: row groups considered"
}
class RowGroupsPrunedByStatsMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.RowGroupsPrunedByStats
  override def description: String = "bloom: row groups skipped by statistics"
}
class RowGroupsPrunedByBloomMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.RowGroupsPrunedByBloom
  override def description: String = "bloom: row groups skipped by bloom filter"
}
class FilterBytesReadMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.FilterBytesRead
  override def description: String = "bloom: filter bytes read"
}
class FootersReadMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.FootersRead
  override def description: String = "bloom: footers read"
}
class BrokenFiltersMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.BrokenFilters
  override def description: String = "bloom: filters ignored as broken"
}
class UnreadableFilesMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.UnreadableFiles
  override def description: String = "bloom: files kept unread (footer unreadable)"
}
class PruningTimeMetric extends CustomSumMetric {
  override def name: String = BloomMetrics.PruningTimeMs
  override def description: String = "bloom: pruning time (ms)"
}

/** Counters of one planning (or one task's) pruning run, and their Spark metrics. */
final case class PruningCounts(
    filesTotal: Long = 0, filesPruned: Long = 0, rowGroupsTotal: Long = 0, rowGroupsPrunedByStats: Long = 0,
    rowGroupsPrunedByBloom: Long = 0, filterBytesRead: Long = 0, footersRead: Long = 0, brokenFilters: Long = 0,
    unreadableFiles: Long = 0, pruningTimeMs: Long = 0) {

  def +(o: PruningCounts): PruningCounts = PruningCounts(
    filesTotal + o.filesTotal, filesPruned + o.filesPruned, rowGroupsTotal + o.rowGroupsTotal,
    rowGroupsPrunedByStats + o.rowGroupsPrunedByStats, rowGroupsPrunedByBloom + o.rowGroupsPrunedByBloom,
    filterBytesRead + o.filterBytesRead, footersRead + o.footersRead, brokenFilters + o.brokenFilters,
    unreadableFiles + o.unreadableFiles, pruningTimeMs + o.pruningTimeMs)

  def toTaskMetrics: Array[CustomTaskMetric] = Array(
    BloomMetrics.FilesTotal -> filesTotal, BloomMetrics.FilesPruned -> filesPruned,
    BloomMetrics.RowGroupsTotal -> rowGroupsTotal, BloomMetrics.RowGroupsPrunedByStats -> rowGroupsPrunedByStats,
    BloomMetrics.RowGroupsPrunedByBloom -> rowGroupsPrunedByBloom, BloomMetrics.FilterBytesRead -> filterBytesRead,
    BloomMetrics.FootersRead -> footersRead, BloomMetrics.BrokenFilters -> brokenFilters,
    BloomMetrics.UnreadableFiles -> unreadableFiles, BloomMetrics.PruningTimeMs -> pruningTimeMs
  ).map { case (n, v) => BloomMetrics.taskMetric(n, v) }
}

object BloomMetrics {
  val FilesTotal = "bloomFilesTotal"
  val FilesPruned = "bloomFilesPruned"
  val RowGroupsTotal = "bloomRowGroupsTotal"
  val RowGroupsPrunedByStats = "bloomRowGroupsPrunedByStats"
  val RowGroupsPrunedByBloom = "bloomRowGroupsPrunedByBloom"
  val FilterBytesRead = "bloomFilterBytesRead"
  val FootersRead = "bloomFootersRead"
  val BrokenFilters = "bloomBrokenFilters"
  val UnreadableFiles = "bloomUnreadableFiles"
  val PruningTimeMs = "bloomPruningTimeMs"

  def supported: Array[CustomMetric] = Array(
    new FilesTotalMetric, new FilesPrunedMetric, new RowGroupsTotalMetric, new RowGroupsPrunedByStatsMetric,
    new RowGroupsPrunedByBloomMetric, new FilterBytesReadMetric, new FootersReadMetric, new BrokenFiltersMetric,
    new UnreadableFilesMetric, new PruningTimeMetric)

  def taskMetric(metricName: String, metricValue: Long): CustomTaskMetric = new CustomTaskMetric {
    override def name: String = metricName
    override def value: Long = metricValue
  }
}
