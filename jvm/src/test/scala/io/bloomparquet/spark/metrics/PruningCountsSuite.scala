package io.bloomparquet.spark.metrics

import io.bloomparquet.planning.{FileKey, FileOutcome, PrunedFiles}
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
  private val files = PrunedFiles(Map(
      pruned -> outcome(JudgedOutcomes.allPruned),
      cut -> outcome(JudgedOutcomes.twoKept),
      unreadable -> FileOutcome.unread("footer unreadable", footersRead = 1),
      elsewhere -> outcome(JudgedOutcomes.twoKept)))

  test("verdicts count the files counted; an unreadable one counts as a file, not its row groups") {
    val c = PruningCounts.of(files, Seq(pruned, cut, unreadable), rowGroupsReadInGaps = 2, started = System.nanoTime())
    assertEquals((c.filesTotal, c.filesPruned, c.unreadableFiles), (3L, 1L, 1L))
    assertEquals((c.rowGroupsTotal, c.rowGroupsPrunedByBloom, c.rowGroupsPrunedByStats, c.rowGroupsPrunedByDictionary),
      (6L, 2L, 1L, 1L))
    assertEquals((c.brokenFilters, c.filesPlannedOnExecutors, c.rowGroupsReadInGaps), (2L, 2L, 2L))
  }

  test("reads count every file judged, the ones another scan counts too") {
    assertEquals(PruningCounts.of(files, Seq(pruned), 0, System.nanoTime()).footersRead, 4L)
    assertEquals(PruningCounts.of(files, Nil, 0, System.nanoTime()).copy(pruningTimeMs = 0), PruningCounts(footersRead = 4))
  }
}
