package io.bloomparquet.testing

import io.bloomparquet.planning.{FileOutcome, FileReads, FileVersion}
import io.bloomparquet.pruning.RowGroupVerdict
import io.bloomparquet.pruning.SplitPlanner.Span

/** Files of three row groups as planning judged them: every row group pruned, or two kept. */
object JudgedOutcomes {
  val spans: IndexedSeq[Span] = (0 until 3).map(i => Span(4 + 100L * i, 100))

  val allPruned: Seq[RowGroupVerdict] =
    Seq(RowGroupVerdict.PrunedByBloomFilter, RowGroupVerdict.PrunedByStatistics, RowGroupVerdict.PrunedByDictionary)
  val twoKept: Seq[RowGroupVerdict] = Seq(RowGroupVerdict.PrunedByBloomFilter, RowGroupVerdict.Keep, RowGroupVerdict.Keep)

  /** A file judged from one footer read, with `verdicts` for [[spans]]. */
  def outcome(verdicts: Seq[RowGroupVerdict], version: FileVersion.Lookup = FileVersion.NotOffered, brokenFilters: Int = 0,
      readByJob: Boolean = false): FileOutcome =
    FileOutcome(spans, verdicts.toIndexedSeq, brokenFilters = brokenFilters, rowGroupsUnprobed = 0, version = version,
      failure = None, reads = FileReads.footerOnly(1), readByJob = readByJob)
}
