package io.bloomparquet.spark.metrics

import io.bloomparquet.planning.{DigestUse, FileKey, FileOutcome, PrunedFiles}
import io.bloomparquet.pruning.RowGroupVerdict
import io.bloomparquet.testing.JudgedOutcomes

/** A pruning run's counters: verdicts of the files it counts, reads of every file it judged. */
class PruningCountsSuite extends munit.FunSuite {
  private def outcome(verdicts: Seq[RowGroupVerdict]): FileOutcome =
    JudgedOutcomes.outcome(verdicts, brokenFilters = 1, readByJob = true)

  private val pruned = FileKey("/t/pruned.parquet", 304, 7)
  private val cut = FileKey("/t/cut.parquet", 304, 8)
  private val unreadable = FileKey("/t/unreadable.parquet", 304, 9)
  private val elsewhere = FileKey("/t/counted-by-another-scan.parquet", 304, 10)
  private val toTask = FileKey("/t/judged-by-its-tasks.parquet", 304, 11)
  private val digestUse = DigestUse(entries = 9, entriesPruned = 7, requests = 3, bytesRead = 4096, filesNotCovered = 2,
    refused = 0)
  private val files = PrunedFiles(
    Map(
      pruned -> outcome(JudgedOutcomes.allPruned),
      cut -> outcome(JudgedOutcomes.twoKept),
      unreadable -> FileOutcome.unread("footer unreadable", footersRead = 1),
      elsewhere -> outcome(JudgedOutcomes.twoKept)), Set(toTask), digestUse)

  test("verdicts count the files counted; an unreadable one counts as a file, not its row groups") {
    val c = PruningCounts.of(files, Seq(pruned, cut, unreadable), rowGroupsReadInGaps = 2, started = System.nanoTime())
    assertEquals((c.filesTotal, c.filesPruned, c.unreadableFiles), (3L, 1L, 1L))
    assertEquals((c.rowGroupsTotal, c.rowGroupsPrunedByBloom, c.rowGroupsPrunedByStats, c.rowGroupsPrunedByDictionary),
      (6L, 2L, 1L, 1L))
    assertEquals((c.brokenFilters, c.filesPlannedOnExecutors, c.rowGroupsReadInGaps), (2L, 2L, 2L))
  }

  test("a file planning left for its tasks to judge is theirs to count") {
    val c = PruningCounts.of(files, Seq(pruned, toTask), rowGroupsReadInGaps = 0, started = System.nanoTime())
    assertEquals((c.filesTotal, c.filesPruned, c.rowGroupsTotal), (1L, 1L, 3L))
  }

  test("reads count every file judged, the ones another scan counts too") {
    assertEquals(PruningCounts.of(files, Seq(pruned), 0, System.nanoTime()).footersRead, 4L)
    assertEquals(PruningCounts.of(files, Nil, 0, System.nanoTime()).copy(pruningTimeMs = 0),
      PruningCounts(footersRead = 4, digest = digestUse))
  }

  test("what the digest did is counted once per pruning run, summed across runs, and reported as metrics") {
    val once = PruningCounts.of(files, Seq(pruned), 0, System.nanoTime())
    assertEquals(once.digest, digestUse)
    assertEquals((once + once).digest,
      digestUse.copy(entries = 18, entriesPruned = 14, requests = 6, bytesRead = 8192,
        filesNotCovered = 4))
    val metrics = once.toTaskMetrics.map(m => m.name -> m.value).toMap
    assertEquals(
      Seq(BloomMetrics.DigestEntries, BloomMetrics.DigestEntriesPruned, BloomMetrics.DigestRequests, BloomMetrics.DigestBytesRead,
        BloomMetrics.DigestFilesNotCovered, BloomMetrics.DigestRefused).map(metrics),
      Seq(9L, 7L, 3L, 4096L, 2L, 0L))
    assert(BloomMetrics.supported.map(_.name).toSet.subsetOf(metrics.keySet ++ Set(BloomMetrics.RuntimeFiltersReceived,
        BloomMetrics.RuntimeFilterTimeMs, BloomMetrics.TasksPlanned, BloomMetrics.FilesChangedSincePlanning,
        BloomMetrics.FilesJudgedInTasks)))
  }
}
