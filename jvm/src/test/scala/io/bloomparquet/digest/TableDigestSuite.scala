package io.bloomparquet.digest

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path => NioPath}
import java.util.UUID

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, Path}

/** A table's current digest found through its pointer in two reads, or an answer saying why not. */
class TableDigestSuite extends munit.FunSuite {
  private val fs = FileSystem.getLocal(new Configuration())
  private val files = IndexedSeq.tabulate(50)(f =>
    DigestFile(s"part-$f-${UUID.randomUUID()}.parquet", 1000, 1, None, IndexedSeq(DigestRowGroup(4, 996, 10))))
  private val filters = files.indices.map(f => DigestFilter("k", Seq("k"), "optional int64 v", DigestEntry(f, 0), new Array[Int](64)))

  /**
   * A table folder with a digest and its pointer, written by `pointer` from the digest's name, length
   * and index start (as the builder writes it by default).
   */
  private def table(pointer: (String, Long, Long) => String = (n, l, i) => TableDigest.Pointer(n, l, Some(i)).text)
      : (NioPath, Array[Byte]) = {
    val root = Files.createTempDirectory("table")
    val folder = Files.createDirectories(root.resolve(TableDigest.Folder))
    val name = s"digest-${System.currentTimeMillis()}-${UUID.randomUUID()}.puffin"
    val out = new java.io.ByteArrayOutputStream()
    BloomDigest.write(out, files, filters, 0.01, Map.empty)
    Files.write(folder.resolve(name), out.toByteArray)
    val indexStart = PuffinFile.footer(out.toByteArray, out.size.toLong).fold(why => fail(why), identity)
      .blobs.find(_.kind == DigestIndex.BlobType).get.offset
    Files.write(folder.resolve(TableDigest.PointerFile), pointer(name, out.size.toLong, indexStart).getBytes(UTF_8))
    (root, out.toByteArray)
  }
  private def open(root: NioPath, guess: Int = TableDigest.TailGuessBytes) = TableDigest.open(fs, new Path(root.toUri), guess)
  private def refused(found: TableDigest.Found): String = found match {
    case TableDigest.Refused(why, _) => why
    case other => fail(s"not refused: $other")
  }

  test("no pointer: no digest, after one read") {
    assertEquals(open(Files.createTempDirectory("bare")), TableDigest.Missing(1))
  }

  private def opened(found: TableDigest.Found, reads: Int, length: Int): Unit = found match {
    case TableDigest.Opened(d, _, tail, start, n, _) =>
      assertEquals(n, reads)
      assertEquals(d.index.files, files)
      assertEquals(start + tail.length, length.toLong)
    case other => fail(s"$other")
  }

  test("the pointer and one read of the digest's tail open it, from the index's start the pointer gives") {
    val (root, bytes) = table()
    open(root) match {
      case TableDigest.Opened(_, _, _, _, reads, read) => assertEquals((reads, read), (2, bytes.length.toLong))
      case other => fail(s"$other")
    }
    // A first read too short for the index: the pointer's index start makes it longer.
    val footer = PuffinFile.footerLength(bytes.takeRight(PuffinFile.TrailerBytes)).fold(why => fail(why), identity)
    opened(open(root, guess = footer + 8), reads = 2, bytes.length)
  }

  test("a pointer with no index start, or a wrong one, costs a read more where the index is past the first read") {
    val footer = (bytes: Array[Byte]) =>
      PuffinFile.footerLength(bytes.takeRight(PuffinFile.TrailerBytes)).fold(why => fail(why), identity)
    val (old, oldBytes) = table((n, l, _) => f"$n%s $l%015d\n")
    opened(open(old), reads = 2, oldBytes.length)
    opened(open(old, guess = footer(oldBytes) + 8), reads = 3, oldBytes.length)
    // An index start past the real one: the footer says where the index is, read from there.
    val (late, lateBytes) = table((n, l, i) => TableDigest.Pointer(n, l, Some(i + 10)).text)
    opened(open(late, guess = footer(lateBytes) + 8), reads = 3, lateBytes.length)
    // One before it, or outside the file: more bytes read, or the guess alone; the same digest.
    val (early, earlyBytes) = table((n, l, i) => TableDigest.Pointer(n, l, Some(i - 10)).text)
    opened(open(early, guess = footer(earlyBytes) + 8), reads = 2, earlyBytes.length)
    val (outside, outsideBytes) = table((n, l, _) => TableDigest.Pointer(n, l, Some(l + 5)).text)
    opened(open(outside, guess = footer(outsideBytes) + 8), reads = 3, outsideBytes.length)
  }

  test("a pointer or digest that cannot be trusted is refused, saying why") {
    assert(refused(open(table((_, _, _) => "not a pointer")._1)).contains("names no digest"))
    assert(refused(open(table((_, l, _) => s"../digest-1-${UUID.randomUUID()}.puffin $l")._1)).contains("names no digest"))
    assert(refused(open(table((_, l, _) => s"digest-1-${UUID.randomUUID()}.puffin $l")._1)).contains("gone"))
    assert(refused(open(table((n, l, _) => s"$n ${l + 100}")._1)).contains("shorter than the pointer says"))
    val (root, bytes) = table()
    val digest = Files.list(root.resolve(TableDigest.Folder)).filter(_.toString.endsWith(".puffin")).findFirst.get
    Files.write(digest, bytes.dropRight(10) ++ new Array[Byte](10)) // same length, footer damaged
    assert(refused(open(root)).contains("magic"))
  }
}
