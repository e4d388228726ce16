package io.bloomparquet.planning

import java.nio.file.{Files, Path => NioPath}

import scala.jdk.CollectionConverters._

import io.bloomparquet.options.ReadCostSettings
import io.bloomparquet.tail.FooterTail
import io.bloomparquet.testing.{SlowFileSystem, SmallParquet}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile

/** The footer from one tail read equals parquet-java's; reads inside the tail cost no request. */
class FooterTailSuite extends munit.FunSuite {
  private val conf = new Configuration()
  SlowFileSystem.settings().asScala.foreach { case (k, v) => conf.set(k, v) }

  private lazy val file: NioPath = SmallParquet.write(Files.createTempDirectory("bp-footer-tail"))

  private def gets(): Long = SlowFileSystem.of(file.toString)(1)

  /** What parquet-java's footer says about row groups and filters. */
  private def summary(f: ParquetMetadata) = f.getBlocks.asScala.map(b =>
    (b.getRowCount, b.getStartingPos, b.getColumns.asScala.map(c => (c.getPath.toDotString, c.getBloomFilterOffset))))

  private def withStream[T](path: NioPath)(body: (org.apache.parquet.io.SeekableInputStream, Long) => T): T = {
    val in = HadoopInputFile.fromPath(new Path(s"slow://$path"), conf)
    val stream = in.newStream()
    try body(stream, in.getLength)
    finally stream.close()
  }

  test("one read of the tail gives parquet-java's footer; a short guess takes exactly one more") {
    val expected = summary(SmallParquet.footer(file))
    for ((speculative, reads) <- Seq(TailSizer.Initial -> 1L, 16L -> 2L)) {
      SlowFileSystem.reset()
      val tail = withStream(file)((in, len) => FooterTail.read(in, len, speculative)).get
      assertEquals(summary(tail.footer), expected)
      assertEquals(gets(), reads, s"speculative $speculative")
    }
  }

  test("reads inside the tail come from memory, others from the file, with the file's bytes") {
    val bytes = Files.readAllBytes(file)
    SlowFileSystem.reset()
    withStream(file) { (in, len) =>
      val tail = FooterTail.read(in, len, len - 200).get
      def check(pos: Long, n: Int): Unit = {
        val got = new Array[Byte](n)
        tail.stream.seek(pos)
        tail.stream.readFully(got)
        assert(got.sameElements(bytes.slice(pos.toInt, pos.toInt + n)), s"bytes at $pos")
        assertEquals(tail.stream.getPos, pos + n)
      }
      assertEquals(gets(), 1L)
      check(len - 100, 100)
      check(200, 1000)
      assertEquals(gets(), 1L)
      check(4, 100) // before the tail
      check(150, 100) // straddles its start
      assertEquals(gets(), 3L)
    }
  }

  test("not a plaintext footer: left to parquet-java's reader") {
    val bytes = Files.readAllBytes(file)
    val dir = Files.createTempDirectory("bp-footer-tail-bad")
    val encrypted = bytes.clone()
    "PARE".getBytes("US-ASCII").copyToArray(encrypted, encrypted.length - 4)
    val huge = bytes.clone()
    java.nio.ByteBuffer.wrap(huge, huge.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(Int.MaxValue)
    for ((name, content) <- Seq("encrypted" -> encrypted, "huge" -> huge, "truncated" -> bytes.take(bytes.length / 2),
        "garbage" -> (bytes.take(bytes.length - 40) ++ Array.fill[Byte](32)(7) ++ bytes.takeRight(8)))) {
      val f = dir.resolve(name)
      Files.write(f, content)
      assertEquals(withStream(f)((in, len) => FooterTail.read(in, len, TailSizer.Initial)), None, name)
    }
  }

  test("the file tools' read gives the same footer and where it starts, and names a file it can't read") {
    val bytes = Files.readAllBytes(file)
    val local = new Path(file.toUri)
    val fs = local.getFileSystem(new Configuration())
    val (fmd, start) = FooterTail.readThrift(fs, fs.getFileStatus(local))
    assertEquals(start, SmallParquet.footerStart(bytes))
    assertEquals(fmd.getRow_groups.size, SmallParquet.footer(file).getBlocks.size)
    val encrypted = SmallParquet.damaged(file, "encrypted-magic")(b => {
      val c = b.clone(); "PARE".getBytes("US-ASCII").copyToArray(c, c.length - 4); c
    })
    val path = new Path(encrypted.toUri)
    val e = intercept[IllegalArgumentException](FooterTail.readThrift(fs, fs.getFileStatus(path)))
    assert(e.getMessage.contains(path.toString) && e.getMessage.contains("encrypted footer"), e.getMessage)
  }

  test("the tail size: the first guess until a file is read, then the most needed, at least the floor, within bounds") {
    val sizer = new TailSizer(initial = 16384, floor = 2048)
    assertEquals(sizer.size, 16384L)
    sizer.learn(1000)
    assertEquals(sizer.size, 2048L)
    sizer.learn(200000)
    sizer.learn(100000)
    assertEquals(sizer.size, 200000L)
    // A need beyond the bound is not learned: a tail cut at the bound would stop short of it, and each
    // later file would read its 4 MiB and then its filter again (whole 4 MiB filters were read twice).
    sizer.learn(TailSizer.Max + 1)
    sizer.learn(Long.MaxValue)
    assertEquals(sizer.size, 200000L)
    sizer.learn(TailSizer.Max)
    assertEquals(sizer.size, TailSizer.Max)
  }

  test("tails by cost: ~64 KiB ahead on an object store, a request's 1/32 on HDFS, exactly the footer on a local disk") {
    def sizes(scheme: String, needs: Long*): Seq[Long] = {
      val sizer = TailSizer.forCost(ReadCost.forScheme(Some(scheme)))
      sizer.size +: needs.map { n => sizer.learn(n); sizer.size }
    }
    // 20 ms a request at 100 MB/s: 2 MB, of which 1/32 is read ahead (0.6 ms against a second request's 20).
    assertEquals(sizes("s3a", 700, 100000), Seq(TailSizer.Initial, 62500L, 100000L))
    // 1 ms a request at 200 MB/s: 200 KB, of which 1/32.
    assertEquals(sizes("hdfs", 700, 100000), Seq(TailSizer.Initial, 6250L, 100000L))
    // 64 files at once share the driver's 1 GB/s: 15.6 MB/s a file, a request worth 312,500 bytes, 1/32 of it.
    val shared = TailSizer.forCost(ReadCost.forPath("s3a://b/f", ReadCostSettings(filesAtOnce = 64)))
    shared.learn(700)
    assertEquals(shared.size, 9765L)
    // A request goes unnoticed: 1 KiB first, then the most needed, not a byte more.
    assertEquals(sizes("file", 700, 650, 900), Seq(1024L, 700L, 700L, 900L))
  }
}
