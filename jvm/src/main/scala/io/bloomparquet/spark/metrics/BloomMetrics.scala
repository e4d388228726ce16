package io.bloomparquet.spark.metrics

import java.util.concurrent.TimeUnit

import io.bloomparquet.planning.{DigestUse, FileKey, PrunedFiles}
import io.bloomparquet.pruning.RowGroupVerdict
import org.apache.spark.sql.connector.metric.{CustomMetric, CustomSumMetric, CustomTaskMetric}

/** A summed metric; one subclass per metric because Spark instantiates them by class name. */
abstract class BloomSumMetric(override val name: String, override val description: String) extends CustomSumMetric

class FilesTotalMetric extends BloomSumMetric(BloomMetrics.FilesTotal, "bloom: files considered")
class FilesPrunedMetric extends BloomSumMetric(BloomMetrics.FilesPruned, "bloom: files skipped")
class RowGroupsTotalMetric extends BloomSumMetric(BloomMetrics.RowGroupsTotal, "bloom: row groups considered")
class RowGroupsPrunedByStatsMetric
    extends BloomSumMetric(BloomMetrics.RowGroupsPrunedByStats, "bloom: row groups skipped by statistics")
class RowGroupsPrunedByBloomMetric
    extends BloomSumMetric(BloomMetrics.RowGroupsPrunedByBloom, "bloom: row groups skipped by bloom filter")
class RowGroupsPrunedByDictionaryMetric extends BloomSumMetric(BloomMetrics.RowGroupsPrunedByDictionary,
      "bloom: row groups skipped by dictionary (chunks without a filter, all pages dictionary-encoded)")
class DictionaryBytesReadMetric extends BloomSumMetric(BloomMetrics.DictionaryBytesRead,
      "bloom: dictionary page bytes planning read")
class RowGroupsUnprobedMetric extends BloomSumMetric(BloomMetrics.RowGroupsUnprobed,
      "bloom: row groups kept without probing (probe could not pay off)")
class RowGroupsReadInGapsMetric extends BloomSumMetric(BloomMetrics.RowGroupsReadInGaps,
      "bloom: pruned row groups read anyway (small gaps between survivors: cheaper than opening the file again)")
class FilterBytesReadMetric extends BloomSumMetric(BloomMetrics.FilterBytesRead, "bloom: filter bytes read")
class FilterReadsMetric
    extends BloomSumMetric(BloomMetrics.FilterReads, "bloom: filter reads (requests beyond the footer's tail read)")
class FiltersReadInBlocksMetric extends BloomSumMetric(BloomMetrics.FiltersReadInBlocks,
      "bloom: filters read in blocks (only the 32-byte blocks probed values hash to)")
class PlanningBytesReadMetric extends BloomSumMetric(BloomMetrics.PlanningBytesRead,
      "bloom: bytes planning read from files (file ends with their footers, and filter ranges beyond them)")
class FootersReadMetric extends BloomSumMetric(BloomMetrics.FootersRead, "bloom: footers read")
class BrokenFiltersMetric extends BloomSumMetric(BloomMetrics.BrokenFilters, "bloom: filters ignored as broken")
class UnreadableFilesMetric
    extends BloomSumMetric(BloomMetrics.UnreadableFiles, "bloom: files kept unread (footer unreadable)")
class FilesPlannedOnExecutorsMetric extends BloomSumMetric(BloomMetrics.FilesPlannedOnExecutors,
      "bloom: files whose footer and filters a planning job read on the executors")
class PruningTimeMetric extends BloomSumMetric(BloomMetrics.PruningTimeMs, "bloom: pruning time (ms)")
class RuntimeFiltersReceivedMetric
    extends BloomSumMetric(BloomMetrics.RuntimeFiltersReceived, "bloom: runtime filters received (dynamic pruning)")
class RuntimeFilterTimeMetric
    extends BloomSumMetric(BloomMetrics.RuntimeFilterTimeMs, "bloom: time applying runtime filters (ms)")
class FilesChangedSincePlanningMetric extends BloomSumMetric(BloomMetrics.FilesChangedSincePlanning,
      "bloom: files read whole (replaced since planning judged them)")
class FilesJudgedInTasksMetric extends BloomSumMetric(BloomMetrics.FilesJudgedInTasks,
      "bloom: files judged in their tasks (bloom.mode=task: every file; plan: those the digest kept, unread by planning)")
class DigestEntriesMetric extends BloomSumMetric(BloomMetrics.DigestEntries,
      "bloom digest: entries (row groups' filters) of the probed columns for the scan's files")
class DigestEntriesPrunedMetric
    extends BloomSumMetric(BloomMetrics.DigestEntriesPruned, "bloom digest: entries that rule their row group out")
class DigestRequestsMetric
    extends BloomSumMetric(BloomMetrics.DigestRequests, "bloom digest: requests (its pointer, its tail, rows probed)")
class DigestBytesReadMetric extends BloomSumMetric(BloomMetrics.DigestBytesRead, "bloom digest: bytes read")
class DigestFilesNotCoveredMetric extends BloomSumMetric(BloomMetrics.DigestFilesNotCovered,
      "bloom digest: files judged on their own (not in the digest, or changed since it was built)")
class DigestRefusedMetric
    extends BloomSumMetric(BloomMetrics.DigestRefused, "bloom digest: digests refused (damaged or of an unknown version)")
class TasksPlannedMetric extends BloomSumMetric(BloomMetrics.TasksPlanned, "bloom: tasks planned")

/** Counters of one planning (or one task's) pruning run, and their Spark metrics. */
final case class PruningCounts(
    filesTotal: Long = 0, filesPruned: Long = 0, rowGroupsTotal: Long = 0, rowGroupsPrunedByStats: Long = 0,
    rowGroupsPrunedByBloom: Long = 0, rowGroupsUnprobed: Long = 0, rowGroupsReadInGaps: Long = 0, filterBytesRead: Long = 0,
    filterReads: Long = 0, filtersReadInBlocks: Long = 0, footersRead: Long = 0, brokenFilters: Long = 0,
    unreadableFiles: Long = 0, filesPlannedOnExecutors: Long = 0, pruningTimeMs: Long = 0, planningBytesRead: Long = 0,
    rowGroupsPrunedByDictionary: Long = 0, dictionaryBytesRead: Long = 0, digest: DigestUse = DigestUse.NotLookedFor) {

  /** The counts of two prunings of different files (a scan's planning, then its runtime key sets), together. */
  def +(o: PruningCounts): PruningCounts = PruningCounts(
    filesTotal + o.filesTotal, filesPruned + o.filesPruned, rowGroupsTotal + o.rowGroupsTotal,
    rowGroupsPrunedByStats + o.rowGroupsPrunedByStats, rowGroupsPrunedByBloom + o.rowGroupsPrunedByBloom,
    rowGroupsUnprobed + o.rowGroupsUnprobed, rowGroupsReadInGaps + o.rowGroupsReadInGaps,
    filterBytesRead + o.filterBytesRead, filterReads + o.filterReads, filtersReadInBlocks + o.filtersReadInBlocks,
    footersRead + o.footersRead, brokenFilters + o.brokenFilters, unreadableFiles + o.unreadableFiles,
    filesPlannedOnExecutors + o.filesPlannedOnExecutors, pruningTimeMs + o.pruningTimeMs,
    planningBytesRead + o.planningBytesRead, rowGroupsPrunedByDictionary + o.rowGroupsPrunedByDictionary,
    dictionaryBytesRead + o.dictionaryBytesRead,
    DigestUse(digest.entries + o.digest.entries, digest.entriesPruned + o.digest.entriesPruned,
      digest.requests + o.digest.requests, digest.bytesRead + o.digest.bytesRead,
      digest.filesNotCovered + o.digest.filesNotCovered, digest.refused + o.digest.refused))

  /**
   * What judging a scan's files again adds to its first judging (a join's keys judged them, then the
   * scan's own filters; adaptive execution planning the scan again): the files it drops and what it
   * read. Its files and row groups were counted by the first.
   */
  def asLaterPass: PruningCounts = copy(filesTotal = 0, rowGroupsTotal = 0, rowGroupsPrunedByStats = 0,
    rowGroupsPrunedByBloom = 0, rowGroupsUnprobed = 0, rowGroupsPrunedByDictionary = 0)

  /** Each counter by its metric's name. */
  def byName: Map[String, Long] = toTaskMetrics.map(m => m.name -> m.value).toMap

  def toTaskMetrics: Array[CustomTaskMetric] = Array(
    BloomMetrics.FilesTotal -> filesTotal, BloomMetrics.FilesPruned -> filesPruned,
    BloomMetrics.RowGroupsTotal -> rowGroupsTotal, BloomMetrics.RowGroupsPrunedByStats -> rowGroupsPrunedByStats,
    BloomMetrics.RowGroupsPrunedByBloom -> rowGroupsPrunedByBloom, BloomMetrics.RowGroupsUnprobed -> rowGroupsUnprobed,
    BloomMetrics.RowGroupsReadInGaps -> rowGroupsReadInGaps, BloomMetrics.FilterBytesRead -> filterBytesRead,
    BloomMetrics.FilterReads -> filterReads, BloomMetrics.FiltersReadInBlocks -> filtersReadInBlocks,
    BloomMetrics.FootersRead -> footersRead, BloomMetrics.BrokenFilters -> brokenFilters,
    BloomMetrics.UnreadableFiles -> unreadableFiles, BloomMetrics.FilesPlannedOnExecutors -> filesPlannedOnExecutors,
    BloomMetrics.PruningTimeMs -> pruningTimeMs, BloomMetrics.PlanningBytesRead -> planningBytesRead,
    BloomMetrics.RowGroupsPrunedByDictionary -> rowGroupsPrunedByDictionary,
    BloomMetrics.DictionaryBytesRead -> dictionaryBytesRead, BloomMetrics.DigestEntries -> digest.entries,
    BloomMetrics.DigestEntriesPruned -> digest.entriesPruned, BloomMetrics.DigestRequests -> digest.requests,
    BloomMetrics.DigestBytesRead -> digest.bytesRead, BloomMetrics.DigestFilesNotCovered -> digest.filesNotCovered,
    BloomMetrics.DigestRefused -> digest.refused
  ).map { case (n, v) => BloomMetrics.taskMetric(n, v) }
}

object PruningCounts {

  /**
   * The counters of one pruning run: of the files it counts (`counted`: a file in several splits is
   * counted once), and of every read `pruned` took (a planning job's, of files counted elsewhere, too).
   * A file planning handed to its tasks unread is theirs to count.
   */
  def of(pruned: PrunedFiles, among: Seq[FileKey], rowGroupsReadInGaps: Long, started: Long): PruningCounts = {
    val counted = if (pruned.inTask.isEmpty) among else among.filterNot(pruned.inTask)
    // One pass over each: planning over 100,000 files counts them after every lookup.
    var (filesPruned, rowGroups, byStats, byBloom, byDictionary, unprobed, broken, unreadable, onExecutors) =
      (0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L)
    counted.foreach { key =>
      val o = pruned(key)
      broken += o.brokenFilters
      if (o.readByJob) onExecutors += 1
      if (o.failure.isDefined) unreadable += 1
      else {
        var kept = false
        o.verdicts.foreach {
          case RowGroupVerdict.Keep => kept = true
          case RowGroupVerdict.PrunedByStatistics => byStats += 1
          case RowGroupVerdict.PrunedByBloomFilter => byBloom += 1
          case RowGroupVerdict.PrunedByDictionary => byDictionary += 1
        }
        if (!kept) filesPruned += 1
        rowGroups += o.verdicts.size
        unprobed += o.rowGroupsUnprobed
      }
    }
    var (dictionaryBytes, filterBytes, filterReads, inBlocks, footers, planningBytes) = (0L, 0L, 0L, 0L, 0L, 0L)
    pruned.values.foreach { o =>
      val r = o.reads
      dictionaryBytes += r.dictionaryBytesRead
      filterBytes += r.filterBytesRead
      filterReads += r.filterReads
      inBlocks += r.filtersReadInBlocks
      footers += r.footersRead
      planningBytes += r.planningBytesRead
    }
    PruningCounts(
      filesTotal = counted.size,
      filesPruned = filesPruned,
      rowGroupsTotal = rowGroups,
      rowGroupsPrunedByStats = byStats,
      rowGroupsPrunedByBloom = byBloom,
      rowGroupsPrunedByDictionary = byDictionary,
      dictionaryBytesRead = dictionaryBytes,
      rowGroupsUnprobed = unprobed,
      rowGroupsReadInGaps = rowGroupsReadInGaps,
      filterBytesRead = filterBytes,
      filterReads = filterReads,
      filtersReadInBlocks = inBlocks,
      footersRead = footers,
      planningBytesRead = planningBytes,
      brokenFilters = broken,
      unreadableFiles = unreadable,
      filesPlannedOnExecutors = onExecutors,
      pruningTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
      digest = pruned.digest)
  }
}

object BloomMetrics {
  val FilesTotal = "bloomFilesTotal"
  val FilesPruned = "bloomFilesPruned"
  val RowGroupsTotal = "bloomRowGroupsTotal"
  val RowGroupsPrunedByStats = "bloomRowGroupsPrunedByStats"
  val RowGroupsPrunedByBloom = "bloomRowGroupsPrunedByBloom"
  val RowGroupsPrunedByDictionary = "bloomRowGroupsPrunedByDictionary"
  val DictionaryBytesRead = "bloomDictionaryBytesRead"
  val RowGroupsUnprobed = "bloomRowGroupsUnprobed"
  val RowGroupsReadInGaps = "bloomRowGroupsReadInGaps"
  val FilterBytesRead = "bloomFilterBytesRead"
  val FilterReads = "bloomFilterReads"
  val FiltersReadInBlocks = "bloomFiltersReadInBlocks"
  val FootersRead = "bloomFootersRead"
  val PlanningBytesRead = "bloomPlanningBytesRead"
  val BrokenFilters = "bloomBrokenFilters"
  val UnreadableFiles = "bloomUnreadableFiles"
  val FilesPlannedOnExecutors = "bloomFilesPlannedOnExecutors"
  val PruningTimeMs = "bloomPruningTimeMs"
  val RuntimeFiltersReceived = "bloomRuntimeFiltersReceived"
  val RuntimeFilterTimeMs = "bloomRuntimeFilterTimeMs"
  val TasksPlanned = "bloomTasksPlanned"
  val FilesChangedSincePlanning = "bloomFilesChangedSincePlanning"
  val FilesJudgedInTasks = "bloomFilesJudgedInTasks"
  val DigestEntries = "bloomDigestEntries"
  val DigestEntriesPruned = "bloomDigestEntriesPruned"
  val DigestRequests = "bloomDigestRequests"
  val DigestBytesRead = "bloomDigestBytesRead"
  val DigestFilesNotCovered = "bloomDigestFilesNotCovered"
  val DigestRefused = "bloomDigestRefused"

  def supported: Array[CustomMetric] = Array(
    new FilesTotalMetric, new FilesPrunedMetric, new RowGroupsTotalMetric, new RowGroupsPrunedByStatsMetric,
    new RowGroupsPrunedByBloomMetric, new RowGroupsPrunedByDictionaryMetric, new DictionaryBytesReadMetric,
    new RowGroupsUnprobedMetric, new RowGroupsReadInGapsMetric, new FilterBytesReadMetric,
    new FilterReadsMetric, new FiltersReadInBlocksMetric, new FootersReadMetric, new PlanningBytesReadMetric,
    new BrokenFiltersMetric,
    new UnreadableFilesMetric, new FilesPlannedOnExecutorsMetric, new PruningTimeMetric, new RuntimeFiltersReceivedMetric,
    new RuntimeFilterTimeMetric,
    new TasksPlannedMetric, new FilesChangedSincePlanningMetric, new FilesJudgedInTasksMetric, new DigestEntriesMetric,
    new DigestEntriesPrunedMetric,
    new DigestRequestsMetric, new DigestBytesReadMetric, new DigestFilesNotCoveredMetric, new DigestRefusedMetric)

  def taskMetric(metricName: String, metricValue: Long): CustomTaskMetric = new CustomTaskMetric {
    override def name: String = metricName
    override def value: Long = metricValue
  }
}
