package io.bloomparquet.planning

import io.bloomparquet.pruning.RowGroupVerdict
import io.bloomparquet.testing.JudgedOutcomes

/** What every read path takes from the files planning judged: whether a file is read, and at which version. */
class PrunedFilesSuite extends munit.FunSuite {
  private def outcome(verdicts: Seq[RowGroupVerdict]): FileOutcome = JudgedOutcomes.outcome(verdicts, FileVersion.Version("etag-1"))

  private val allPruned = FileKey("s3a://b/t/pruned.parquet", 304, 7)
  private val cut = FileKey("s3a://b/t/cut.parquet", 304, 8)
  private val unreadable = FileKey("s3a://b/t/unreadable.parquet", 304, 9)
  private val toTask = FileKey("s3a://b/t/kept-by-the-digest.parquet", 304, 10)
  private val files = PrunedFiles(
    Map(
      allPruned -> outcome(JudgedOutcomes.allPruned),
      cut -> outcome(JudgedOutcomes.twoKept),
      unreadable -> FileOutcome.unread("footer unreadable", footersRead = 1)), Set(toTask), DigestUse.NotLookedFor)

  test("a file is read where a row group may match, or where planning could not judge it (read whole)") {
    assert(!files.kept(allPruned))
    assert(files.kept(cut))
    assert(files.kept(unreadable))
  }

  test("a file left for its tasks to judge is read, uncut, with no outcome of planning's") {
    assert(files.kept(toTask))
    assertEquals(files.keptRowGroups(toTask), None)
    assertEquals(files.get(toTask), None)
  }

  test("the version judged is the listing's length and modification time with what the file system offered") {
    assertEquals(files.judged(cut), JudgedVersion(304, 8, FileVersion.Version("etag-1")))
    assertEquals(files.judged(unreadable), JudgedVersion(304, 9, FileVersion.NotOffered))
  }

  test("a cut file's tasks read its kept row groups at the version judged") {
    assertEquals(files.keptRowGroups(cut), Some(KeptRowGroups(JudgedOutcomes.spans, IndexedSeq(false, true, true), files.judged(cut))))
    assertEquals(files.keptRowGroups(allPruned), None)
    assertEquals(files.keptRowGroups(unreadable), None)
  }
}
