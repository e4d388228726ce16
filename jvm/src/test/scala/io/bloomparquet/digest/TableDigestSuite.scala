package io.bloomparquet.digest

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path => NioPath}
import java.util.UUID

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, Path}

/** A table's current digest found through its pointer in two reads (three for a large index), or an answer saying why not. */
class TableDigestSuite extends munit.FunSuite {
  private val fs = FileSystem.getLocal(new Configuration())
  private val files = IndexedSeq.tabulate(50)(f =>
    DigestFile(s"part-$f-${UUID.randomUUID()}.parquet", 1000, 1, None, IndexedSeq(DigestRowGroup(4, 996, 10))))
  private val filters = files.indices.map(f => DigestFilter("k", Seq("k"), "optional int64 v", DigestEntry(f, 0), new Array[Int](64)))

  /** A table folder with a digest and its pointer (`length` as the pointer states it, the real one by default). */
  private def table(pointer: (String, Long) => String = (n, l) => TableDigest.Pointer(n, l).text): (NioPath, Array[Byte]) = {
    val root = Files.createTempDirectory("table")
    val folder = Files.createDirectories(root.resolve(TableDigest.Folder))
    val name = s"digest-${System.currentTimeMillis()}-${UUID.randomUUID()}.puffin"
    val out = new java.io.ByteArrayOutputStream()
    BloomDigest.write(out, files, filters, 0.01, Map.empty)
    Files.write(folder.resolve(name), out.toByteArray)
    Files.write(folder.resolve(TableDigest.PointerFile), pointer(name, out.size.toLong).getBytes(UTF_8))
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

  test("the pointer and one read of the digest's tail open it; an index past the first read takes one more") {
    val (root, bytes) = table()
    open(root) match {
      case TableDigest.Opened(d, _, _, _, reads, read) =>
        assertEquals((reads, read), (2, bytes.length.toLong))
        assertEquals(d.index.files, files)
      case other => fail(s"$other")
    }
    // The footer whole, the index not: read again from the index's start.
    val footer = PuffinFile.footerLength(bytes.takeRight(PuffinFile.TrailerBytes)).fold(why => fail(why), identity)
    open(root, guess = footer + 8) match {
      case TableDigest.Opened(d, _, tail, start, reads, _) =>
        assertEquals(reads, 3)
        assertEquals(d.index.files, files)
        assertEquals(start + tail.length, bytes.length.toLong)
      case other => fail(s"$other")
    }
  }

  test("a pointer or digest that cannot be trusted is refused, saying why") {
    assert(refused(open(table((_, _) => "not a pointer")._1)).contains("names no digest"))
    assert(refused(open(table((_, l) => s"../digest-1-${UUID.randomUUID()}.puffin $l")._1)).contains("names no digest"))
    assert(refused(open(table((_, l) => s"digest-1-${UUID.randomUUID()}.puffin $l")._1)).contains("gone"))
    assert(refused(open(table((n, l) => s"$n ${l + 100}")._1)).contains("shorter than the pointer says"))
    val (root, bytes) = table()
    val digest = Files.list(root.resolve(TableDigest.Folder)).filter(_.toString.endsWith(".puffin")).findFirst.get
    Files.write(digest, bytes.dropRight(10) ++ new Array[Byte](10)) // same length, footer damaged
    assert(refused(open(root)).contains("magic"))
  }
}
