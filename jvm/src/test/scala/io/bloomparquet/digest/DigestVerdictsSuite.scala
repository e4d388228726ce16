package io.bloomparquet.digest

import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets.UTF_8
import java.util.SplittableRandom

import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.pruning.{BloomPredicate, RowGroupVerdict}
import io.bloomparquet.sbbf.{FilterFolding, ParquetHash, SplitBlockBloomFilter}
import org.apache.spark.sql.types.{LongType, StringType}
import org.apache.spark.unsafe.types.UTF8String

/**
 * A predicate judged from a digest alone: a row group is pruned only where each entry its columns
 * resolve to rules the values out, exactly as the entry's right-sized filter would; anything the
 * digest cannot answer keeps the row group.
 */
class DigestVerdictsSuite extends munit.FunSuite {
  private val random = new SplittableRandom(7)
  private val fpp = 0.01
  private val Int64 = "optional int64 v"
  private val Int32 = "optional int32 v"
  private val Text = "optional binary v (STRING)"
  private val files = IndexedSeq.tabulate(6)(f =>
    DigestFile(s"f$f.parquet", 100, 1, None, IndexedSeq.tabulate(3)(rg => DigestRowGroup(4L + rg, 1, 100))))
  /** Row group (f, rg) holds k = 1000·f + 10·rg + i for i < 10 (int32 in file 5), and email "u<k>". */
  private def ks(e: DigestEntry): Seq[Long] = (0 until 10).map(i => 1000L * e.file + 10 * e.rowGroup + i)
  private val entries = for (f <- files.indices; rg <- 0 until 3) yield DigestEntry(f, rg)

  private def filter(hashes: Seq[Long]): Array[Int] = {
    val f = SplitBlockBloomFilter(4096 * 32, SbbfKernels.scalar())
    hashes.foreach(f.insertHash)
    f.words
  }
  private def kHash(e: DigestEntry, v: Long): Long = if (e.file == 5) ParquetHash.int32(v.toInt) else ParquetHash.int64(v)
  private val filters = entries.flatMap { e =>
    val k = DigestFilter("k", Seq("k"), if (e.file == 5) Int32 else Int64, e, filter(ks(e).map(kHash(e, _))))
    // File 4 has no filter on email.
    val email = DigestFilter("email", Seq("email"), Text, e, filter(ks(e).map(v => ParquetHash.bytes(s"u$v".getBytes(UTF_8)))))
    if (e.file == 4) Seq(k) else Seq(k, email)
  }
  private val bytes = {
    val out = new ByteArrayOutputStream()
    BloomDigest.write(out, files, filters, fpp, Map.empty)
    out.toByteArray
  }
  private val digest = BloomDigest.open(bytes, bytes.length).fold(why => fail(why), identity)
  private def rowWords(r: RowRead): Array[Int] =
    BloomDigest.words(java.util.Arrays.copyOfRange(bytes, r.offset.toInt, (r.offset + r.length).toInt))

  private def verdicts(p: BloomPredicate, caseSensitive: Boolean = true): Map[DigestEntry, Boolean] = {
    val kept = DigestVerdicts.of(digest, p, caseSensitive, rowWords, SbbfKernels.get())
    val v = entries.map(e => e -> kept.keeps(e.file, e.rowGroup)).toMap
    // A file's verdicts, and whether any row group is kept, say the same.
    files.indices.foreach { f =>
      assertEquals(kept.verdicts(f).map(_ == RowGroupVerdict.Keep), (0 until 3).map(rg => v(DigestEntry(f, rg))))
      assertEquals(kept.keepsAny(f), (0 until 3).exists(rg => v(DigestEntry(f, rg))))
    }
    v
  }

  /** What each entry's own right-sized filter says of `hashes`, for `column`. */
  private def ownSay(column: String, hashesOf: DigestEntry => Seq[Long]): Map[DigestEntry, Boolean] = entries.map { e =>
    e -> filters.find(f => f.column == column && f.entry == e).forall { f =>
      val sized = FilterFolding.rightSized(f.words, fpp)
      val sbbf = SplitBlockBloomFilter(sized.length * 4)
      System.arraycopy(sized, 0, sbbf.words, 0, sized.length)
      hashesOf(e).exists(sbbf.mightContain)
    }
  }.toMap

  private def k(values: Long*): BloomPredicate = BloomPredicate.in(Seq("k"), LongType, values)
  private def email(values: String*): BloomPredicate =
    BloomPredicate.in(Seq("email"), StringType, values.map(UTF8String.fromString))

  test("a present key keeps its row group; each entry answers as its own right-sized filter, per file's type") {
    val present = 2013L // file 2, row group 1
    val v = verdicts(k(present))
    assert(v(DigestEntry(2, 1)))
    assertEquals(v, ownSay("k", e => Seq(kHash(e, present))))
    for (_ <- 0 until 200) {
      val x = random.nextLong(100000)
      assertEquals(verdicts(k(x)), ownSay("k", e => Seq(kHash(e, x))), s"k = $x")
    }
  }

  test("a value the int32 file's type gives no hash for keeps that file, as its own pruning does; others answer by their filters") {
    val huge = 1L << 40
    val v = verdicts(k(huge))
    assert((0 until 3).forall(rg => v(DigestEntry(5, rg))))
    assertEquals(v.filter(_._1.file != 5), ownSay("k", e => Seq(ParquetHash.int64(huge))).filter(_._1.file != 5))
  }

  test("AND and OR combine the leaves; a column without an entry keeps its row groups") {
    val a = verdicts(k(3011))
    val b = verdicts(email("u3011"))
    assertEquals(verdicts(BloomPredicate.allOf(Seq(k(3011), email("u3011"))).get), entries.map(e => e -> (a(e) && b(e))).toMap)
    assertEquals(verdicts(BloomPredicate.anyOf(k(3011), email("u4012"))),
      entries.map(e => e -> (a(e) || verdicts(email("u4012"))(e))).toMap)
    assert((0 until 3).forall(rg => b(DigestEntry(4, rg))), "file 4 has no filter on email: kept")
    assert(verdicts(BloomPredicate.in(Seq("other"), LongType, Seq(1L))).values.forall(identity))
    assert(verdicts(BloomPredicate.NoMatch).values.forall(!_))
  }

  test("names resolve as the session says; a column matched by field id is left to the files") {
    assertEquals(verdicts(BloomPredicate.in(Seq("K"), LongType, Seq(2013L)), caseSensitive = false), verdicts(k(2013)))
    assert(verdicts(BloomPredicate.in(Seq("K"), LongType, Seq(2013L)), caseSensitive = true).values.forall(identity))
    val byId = BloomPredicate.ColumnIn(Seq("k"), LongType, IndexedSeq(99999L), fieldIds = Seq(1))
    assert(verdicts(byId).values.forall(identity))
  }

  test("class types parse back to the types hashing needs") {
    assertEquals(DigestVerdicts.primitive(Int32).getPrimitiveTypeName.name, "INT32")
    assertEquals(DigestVerdicts.primitive("optional int64 v (TIMESTAMP(MICROS,true))").getLogicalTypeAnnotation.toString,
      "TIMESTAMP(MICROS,true)")
    assertEquals(DigestVerdicts.primitive("optional fixed_len_byte_array(16) v (UUID)").getTypeLength, 16)
  }

  test("probing costs each value against each entry of its column's classes; field ids cost nothing") {
    val k = BloomPredicate.ColumnIn(Seq("k"), LongType, IndexedSeq(1L, 2L, 3L))
    val email = BloomPredicate.ColumnIn(Seq("email"), StringType, IndexedSeq(UTF8String.fromString("u1")))
    // k: 18 entries (int64 and int32 classes); email: 15 (file 4 has none).
    assertEquals(DigestVerdicts.probeChecks(digest, k, caseSensitive = true), 3L * 18)
    assertEquals(DigestVerdicts.probeChecks(digest, BloomPredicate.AnyOf(Seq(k, email)), caseSensitive = true), 3L * 18 + 15)
    assertEquals(DigestVerdicts.probeChecks(digest, k.copy(fieldIds = Seq(1)), caseSensitive = true), 0L)
  }
}
