package io.bloomparquet.planning

import io.bloomparquet.pruning.RowGroupVerdict
import io.bloomparquet.pruning.SplitPlanner.Span

/** What every read path takes from the files planning judged: whether a file is read, and at which version. */
class PrunedFilesSuite extends munit.FunSuite {
  private val spans = (0 until 3).map(i => Span(4 + 100L * i, 100))
  private def outcome(verdicts: RowGroupVerdict*): FileOutcome = FileOutcome(spans, verdicts.toIndexedSeq,
    brokenFilters = 0, rowGroupsUnprobed = 0, version = FileVersion.Version("etag-1"), failure = None,
    reads = FileReads.footerOnly(1), readByJob = false)

  private val allPruned = FileKey("s3a://b/t/pruned.parquet", 304, 7)
  private val cut = FileKey("s3a://b/t/cut.parquet", 304, 8)
  private val unreadable = FileKey("s3a://b/t/unreadable.parquet", 304, 9)
  private val files = PrunedFiles(Map(
      allPruned -> outcome(RowGroupVerdict.PrunedByBloomFilter, RowGroupVerdict.PrunedByStatistics,
        RowGroupVerdict.PrunedByDictionary),
      cut -> outcome(RowGroupVerdict.PrunedByBloomFilter, RowGroupVerdict.Keep, RowGroupVerdict.Keep),
      unreadable -> FileOutcome.unread("footer unreadable", footersRead = 1)))

  test("a file is read where a row group may match, or where planning could not judge it (read whole)") {
    assert(!files.kept(allPruned))
    assert(files.kept(cut))
    assert(files.kept(unreadable))
  }

  test("the version judged is the listing's length and modification time with what the file system offered") {
    assertEquals(files.judged(cut), JudgedVersion(304, 8, FileVersion.Version("etag-1")))
    assertEquals(files.judged(unreadable), JudgedVersion(304, 9, FileVersion.NotOffered))
  }

  test("a cut file's tasks read its kept row groups at the version judged") {
    assertEquals(files.keptRowGroups(cut), Some(KeptRowGroups(spans, IndexedSeq(false, true, true), files.judged(cut))))
    assertEquals(files.keptRowGroups(allPruned), None)
    assertEquals(files.keptRowGroups(unreadable), None)
  }
}
