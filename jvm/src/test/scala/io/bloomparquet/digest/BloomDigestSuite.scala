package io.bloomparquet.digest

import java.io.ByteArrayOutputStream
import java.util.SplittableRandom

import io.bloomparquet.kernel.KernelSuite
import io.bloomparquet.sbbf.{FillEstimates, FilterFolding, SplitBlockBloomFilter}

/**
 * A digest written from row groups' filters answers, for every entry, what the entry's right-sized
 * filter answers: never less than the row group's own filter (no value lost), reading one row per
 * size class and value. A damaged digest is refused with a reason.
 */
class BloomDigestSuite extends KernelSuite {
  private val random = new SplittableRandom(42)
  // Filters as writers size them: parquet-java's oversized defaults, exact sizes, and block counts that are not powers of two.
  private val sizes = Seq(1024, 64, 37, 8)
  private val files = IndexedSeq.tabulate(30) { f =>
    DigestFile(s"part-$f.parquet", 1000L + f, 1700000000000L + f, if (f % 2 == 0) Some(s"etag-$f") else None,
      IndexedSeq.tabulate(1 + f % 4)(rg => DigestRowGroup(4L + 100 * rg, 100, 1000)))
  }
  /** Per row group: its k values (hashes) and its own filters on k and, for some row groups only, on email. */
  private val values: Map[DigestEntry, Array[Long]] = (for {
    (file, f) <- files.zipWithIndex
    rg <- file.rowGroups.indices
  } yield DigestEntry(f, rg) -> Array.fill(50 + random.nextInt(200))(random.nextLong())).toMap
  private val filters: Seq[DigestFilter] = values.toSeq.flatMap { case (entry, hashes) =>
    def filter(blocks: Int): Array[Int] = {
      val sbbf = SplitBlockBloomFilter(blocks * 32)
      hashes.foreach(sbbf.insertHash)
      sbbf.words
    }
    val k = DigestFilter("k", Seq("k"), Int64, entry, filter(sizes((entry.file + entry.rowGroup) % sizes.size)))
    if (entry.rowGroup == 0) Seq(k, DigestFilter("email", Seq("email"), Text, entry, filter(256))) else Seq(k)
  }
  private val fpp = 0.01
  private lazy val Int64 = "optional int64 v"
  private lazy val Text = "optional binary v (STRING)"
  private def one(h: Long): String => Array[Long] = _ => Array(h)
  private val bytes: Array[Byte] = {
    val out = new ByteArrayOutputStream()
    BloomDigest.write(out, files, filters, fpp, Map("created-by" -> "bloomparquet test"))
    out.toByteArray
  }
  private lazy val digest: OpenDigest = BloomDigest.open(bytes, bytes.length).fold(why => fail(why), identity)

  private def rowWords(read: RowRead): Array[Int] =
    BloomDigest.words(java.util.Arrays.copyOfRange(bytes, read.offset.toInt, (read.offset + read.length).toInt))

  private def own(column: String, entry: DigestEntry): Option[SplitBlockBloomFilter] =
    filters.find(f => f.column == column && f.entry == entry).map { f =>
      val sbbf = SplitBlockBloomFilter(f.words.length * 4)
      System.arraycopy(f.words, 0, sbbf.words, 0, f.words.length)
      sbbf
    }

  for (name <- kernelNames) test(s"$name: every value of every row group is found in its entry; misses answer as the folded filters") {
    val k = kernel(name)
    for ((entry, hashes) <- values; h <- hashes.take(20))
      assert(digest.mayHold("k", one(h), rowWords, k).contains(entry), s"$entry lost $h")
    for (_ <- 0 until 300) {
      val h = random.nextLong()
      val expected = values.keySet.filter { e =>
        val f = own("k", e).get
        val sbbf = SplitBlockBloomFilter(FilterFolding.rightSized(f.words, fpp).length * 4)
        System.arraycopy(FilterFolding.rightSized(f.words, fpp), 0, sbbf.words, 0, sbbf.words.length)
        sbbf.mightContain(h)
      }
      assertEquals(digest.mayHold("k", one(h), rowWords, k), expected)
      assert(values.keySet.filter(e => own("k", e).get.mightContain(h)).subsetOf(expected), "never less than the own filters")
    }
  }

  test("a probe reads one row per size class of its column; an IN list at most one per value and class") {
    val h = random.nextLong()
    val classes = digest.index.classes.count(_.column == "k")
    assertEquals(digest.reads("k", one(h)).size, classes)
    val five = Array.fill(5)(random.nextLong())
    assert(digest.reads("k", _ => five).size <= 5 * classes)
    assertEquals(digest.reads("email", one(h)).size, digest.index.classes.count(_.column == "email"))
    assertEquals(digest.reads("other", one(h)), Nil)
    assertEquals(digest.mayHold("k", _ => five, rowWords, kernel("scalar")),
      five.flatMap(x => digest.mayHold("k", one(x), rowWords, kernel("scalar"))).toSet)
  }

  test("classes keep a column's Parquet types apart: a value hashes by the type its file stores") {
    assertEquals(digest.index.classes.map(c => c.column -> c.parquetType).distinct.sorted, Seq("email" -> Text, "k" -> Int64))
    val typed = new ByteArrayOutputStream()
    val e0 = DigestEntry(0, 0)
    BloomDigest.write(typed, files,
      Seq(DigestFilter("k", Seq("k"), Int64, e0, filters.head.words),
        DigestFilter("k", Seq("k"), "optional int32 v", DigestEntry(1, 0), filters.head.words)), fpp, Map.empty)
    val open = BloomDigest.open(typed.toByteArray, typed.size).fold(why => fail(why), identity)
    assertEquals(open.index.classes.map(_.parquetType).toSet, Set(Int64, "optional int32 v"))
    val asked = scala.collection.mutable.Set.empty[String]
    open.reads("k", { t => asked += t; Array(1L) })
    assertEquals(asked.toSet, Set(Int64, "optional int32 v"))
    import org.apache.parquet.schema.{LogicalTypeAnnotation, PrimitiveType, Types}
    val ts = Types.required(PrimitiveType.PrimitiveTypeName.INT64)
      .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS)).id(7).named("When")
    assertEquals(DigestClass.typeText(ts), "optional int64 v (TIMESTAMP(MICROS,true))")
    val uuid = Types.required(PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16)
      .as(LogicalTypeAnnotation.uuidType()).named("u")
    assertEquals(DigestClass.typeText(uuid), "optional fixed_len_byte_array(16) v (UUID)")
  }

  test("the index: files with their versions and row groups; a column covers only the row groups with a filter on it") {
    assertEquals(digest.index.files, files)
    assertEquals(digest.index.covered("k"), values.keySet)
    assertEquals(digest.index.covered("email"), values.keySet.filter(_.rowGroup == 0))
    assertEquals(digest.index.fpp, fpp)
    assertEquals(digest.footer.properties, Map("created-by" -> "bloomparquet test"))
  }

  test("right-sized: oversized filters fold, the digest is smaller than the filters it holds, no entry above the bound") {
    val filterBytes = filters.map(_.words.length * 4L).sum
    val classBytes = digest.classBlobs.map(_.length).sum
    assert(classBytes < filterBytes / 4, s"$classBytes bytes of classes for $filterBytes of filters")
    for ((c, i) <- digest.index.classes.zipWithIndex; e <- c.entries.indices) {
      val entryWords = (0 until c.blocks).flatMap { r =>
        rowWords(RowRead(i, r, digest.classBlobs(i).offset + c.layout.rowOffset(r), c.layout.rowBytes)).slice(e * 8, e * 8 + 8)
      }.toArray
      val ownFpp = FillEstimates.fpp(own(c.column, c.entries(e)).get.words)
      assert(FillEstimates.fpp(entryWords) <= math.max(fpp, ownFpp), s"${c.column} ${c.entries(e)}")
    }
  }

  test("the tail alone opens it when it holds footer and index; a shorter one says so") {
    val indexBlob = digest.footer.blobs.last
    val tail = bytes.drop(indexBlob.offset.toInt)
    assertEquals(BloomDigest.open(tail, bytes.length).map(_.index), Right(digest.index))
    assert(BloomDigest.open(tail.drop(1), bytes.length).left.exists(_.contains("before the")))
  }

  test("an index of another version, or stating more bytes than it could hold, is refused") {
    def blob(encoded: Array[Byte], stated: Long): Array[Byte] = {
      val out = new ByteArrayOutputStream()
      out.write(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(stated).array())
      val z = new java.util.zip.DeflaterOutputStream(out)
      z.write(encoded)
      z.close()
      out.toByteArray
    }
    val version9 = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(9).putDouble(0.01).array()
    assert(DigestIndex.decode(blob(version9, 12)).left.exists(_.contains("version 9")))
    assert(DigestIndex.decode(blob(version9, 1L << 40)).left.exists(_.contains("states")))
    assert(DigestIndex.decode(blob(version9, 11)).left.exists(_.contains("other than")))
    assert(DigestIndex.decode(Array[Byte](1, 2)).left.exists(_.contains("of 2 bytes")))
  }

  test("a damaged digest is refused with a reason, never trusted") {
    def refused(b: Array[Byte]): String = BloomDigest.open(b, b.length).left.getOrElse(fail("opened a damaged digest"))
    val indexAt = digest.footer.blobs.last.offset.toInt
    val deflate = bytes.clone(); deflate(indexAt + 12) = (deflate(indexAt + 12) ^ 0xff).toByte
    assert(refused(deflate).contains("inflate"), refused(deflate))
    // One class blob of `blocks` blocks (one entry) beside an index naming `entry` in a class of one block.
    def handMade(blocks: Int, entry: DigestEntry): Array[Byte] = {
      val out = new ByteArrayOutputStream()
      val index = DigestIndex(files, IndexedSeq(DigestClass("k", Seq("k"), Int64, 1, IndexedSeq(entry), IndexedSeq(0))), fpp)
      PuffinFile.write(out,
        Seq(
          PuffinFile.NewBlob(BloomDigest.ClassBlobType, Nil, Map("column" -> "k", "blocks" -> blocks.toString),
            new Array[Byte](32 * blocks)),
          PuffinFile.NewBlob(DigestIndex.BlobType, Nil, Map.empty, DigestIndex.encode(index))), Map.empty)
      out.toByteArray
    }
    assert(refused(handMade(1, DigestEntry(99, 0))).contains("names no row group"))
    assert(refused(handMade(2, DigestEntry(0, 0))).contains("does not match"))
    assert(refused(bytes.take(bytes.length / 2)).contains("magic"))
  }
}
