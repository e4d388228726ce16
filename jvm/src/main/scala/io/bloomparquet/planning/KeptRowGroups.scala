package io.bloomparquet.planning

import io.bloomparquet.compat.{ByteRange, ListedFileValue}
import io.bloomparquet.pruning.SplitPlanner
import io.bloomparquet.pruning.SplitPlanner.Span

/**
 * A file planning kept with some of its row groups pruned ([[PrunedFiles.keptRowGroups]]), as a
 * V1 scan's tasks need it to read only the others: where its row groups lie, which are kept, and
 * the version planning judged. A task finding the file is another version by then reads its split
 * as Spark planned it.
 */
final case class KeptRowGroups(spans: IndexedSeq[Span], keep: IndexedSeq[Boolean], judged: JudgedVersion) {

  /** The ranges of the split `[start, start + length)` to read: [[SplitPlanner]]'s, bridging gaps of `gapBytes`. */
  def ranges(start: Long, length: Long, gapBytes: Long): Seq[ByteRange] =
    SplitPlanner.plan(spans, keep, start, length, gapBytes).ranges
}

object KeptRowGroups {

  /** How a file's kept row groups reach its splits: its file index gives them to the file at listing. */
  val OfListedFile = new ListedFileValue[KeptRowGroups]("bloomparquet.keptRowGroups")
}
