package io.bloomparquet.planning

import java.nio.file.{Files, StandardOpenOption}

import io.bloomparquet.compat.ByteRange
import io.bloomparquet.pruning.RowGroupVerdict
import io.bloomparquet.pruning.SplitPlanner.Span
import org.apache.hadoop.conf.Configuration

/**
 * What a task of a V1 scan reads of a file planning cut (`spark.PrunedScanFormat`): the runs of
 * kept row groups its split owns, and only while the file is the version planning judged.
 */
class KeptRowGroupsSuite extends munit.FunSuite {
  private val conf = new Configuration()
  // Four row groups of 100 bytes from offset 4: midpoints 54, 154, 254, 354.
  private val spans = (0 until 4).map(i => Span(4 + 100L * i, 100))

  private def kept(keep: Boolean*): KeptRowGroups = KeptRowGroups(spans, keep.toIndexedSeq, JudgedVersion(500, 0, FileVersion.NotOffered))

  test("a split is read as the runs of kept row groups it owns, and not at all when it owns none") {
    val k = kept(false, true, false, true)
    assertEquals(k.ranges(0, 500, gapBytes = 0), Seq(ByteRange(55, 199), ByteRange(255, 245)))
    assertEquals(k.ranges(0, 150, gapBytes = 0), Nil) // owns row group 0 alone
    assertEquals(k.ranges(150, 350, gapBytes = 0), Seq(ByteRange(150, 104), ByteRange(255, 245)))
    // A gap of at most gapBytes is read rather than opened around.
    assertEquals(k.ranges(0, 500, gapBytes = 100), Seq(ByteRange(55, 445)))
  }

  private val key = FileKey("file:/t/a.parquet", 500, 0)
  private def keptOf(outcome: FileOutcome): Option[KeptRowGroups] =
    PrunedFiles(Map(key -> outcome), Set.empty, DigestUse.NotLookedFor).keptRowGroups(key)

  test("only files planning cut carry row groups: not those read whole or not at all") {
    val file = FileOutcome(spans, IndexedSeq.fill(4)(RowGroupVerdict.Keep), brokenFilters = 0, rowGroupsUnprobed = 0,
      version = FileVersion.NotOffered, failure = None, reads = FileReads.footerOnly(1), readByJob = false)
    assertEquals(keptOf(file), None)
    val pruned = file.copy(verdicts = IndexedSeq.fill(4)(RowGroupVerdict.PrunedByBloomFilter))
    assertEquals(keptOf(pruned), None)
    assertEquals(keptOf(file.copy(failure = Some("unreadable"))), None)
    val cut = file.copy(verdicts = file.verdicts.updated(2, RowGroupVerdict.PrunedByBloomFilter))
    assertEquals(keptOf(cut).map(_.keep), Some(IndexedSeq(true, true, false, true)))
  }

  test("a task reads the file's row groups only while it is the version planning judged") {
    val file = Files.createTempFile("bp-kept", ".parquet")
    Files.write(file, Array.fill[Byte](500)(1))
    val path = file.toUri.toString
    def judgedNow = JudgedVersion(Files.size(file), Files.getLastModifiedTime(file).toMillis, FileVersion.of(path, conf))
    def unchanged(judged: JudgedVersion) = JudgedVersion.now(path, conf).contains(judged)
    val planned = judgedNow
    assert(unchanged(planned))
    val mtime = Files.getLastModifiedTime(file)
    Thread.sleep(20) // ctime has the kernel's clock granularity
    Files.write(file, Array.fill[Byte](500)(2), StandardOpenOption.TRUNCATE_EXISTING)
    Files.setLastModifiedTime(file, mtime)
    // Same length and modification time: another version all the same.
    assert(!unchanged(planned))
    val judged = judgedNow
    assert(unchanged(judged))
    assert(!unchanged(judged.copy(length = 499)))
    assert(!unchanged(judged.copy(modificationTime = 1)))
    Files.delete(file)
    assert(!unchanged(judged))
  }
}
