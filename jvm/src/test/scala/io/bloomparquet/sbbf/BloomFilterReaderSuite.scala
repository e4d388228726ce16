package io.bloomparquet.sbbf

import java.io.ByteArrayOutputStream
import java.nio.file.{Files, Path => NioPath}

import scala.jdk.CollectionConverters._
import scala.util.Using

import io.bloomparquet.kernel.SbbfKernels
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.column.ParquetProperties
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.format.{BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader, SplitBlockAlgorithm, Uncompressed, Util, XxHash}
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.io.{LocalInputFile, SeekableInputStream}
import org.apache.parquet.schema.MessageTypeParser

class BloomFilterReaderSuite extends munit.FunSuite {

  private val tmp = FunFixture[NioPath](_ => Files.createTempDirectory("bp-reader"),
    dir =>
      Files.walk(dir).iterator().asScala.toSeq.reverse.foreach(Files.delete))

  private def header(numBytes: Int): BloomFilterHeader =
    new BloomFilterHeader(numBytes, BloomFilterAlgorithm.BLOCK(new SplitBlockAlgorithm()),
      BloomFilterHash.XXHASH(new XxHash()), BloomFilterCompression.UNCOMPRESSED(new Uncompressed()))

  private def encode(h: BloomFilterHeader, bitset: Array[Byte]): Array[Byte] = {
    val out = new ByteArrayOutputStream()
    Util.writeBloomFilterHeader(h, out)
    out.write(bitset)
    out.toByteArray
  }

  private def withStream[T](dir: NioPath, bytes: Array[Byte])(f: (SeekableInputStream, Long) => T): T = {
    val file = Files.write(dir.resolve("f.bin"), bytes)
    val input = new LocalInputFile(file)
    Using.resource(input.newStream())(in => f(in, input.getLength))
  }

  private val sample: SplitBlockBloomFilter = {
    val f = SplitBlockBloomFilter(96)
    Array(1L, 2L, 3L, 0x7fffffffffffL).foreach(f.insertHash)
    f
  }

  tmp.test("reads a valid filter with and without bloom_filter_length, at an offset") { dir =>
    val prefix = Array.fill[Byte](10)(7)
    val data = encode(header(96), sample.toBytes)
    withStream(dir, prefix ++ data ++ Array[Byte](1, 2)) { (in, len) =>
      BloomFilterReader.read(in, len, 10L, data.length, SbbfKernels.get()) match {
        case FilterFound.Loaded(f, read) => assertEquals(f, sample); assertEquals(read, data.length.toLong)
        case other => fail(s"got $other")
      }
      BloomFilterReader.read(in, len, 10L, -1, SbbfKernels.get()) match {
        case FilterFound.Loaded(f, _) => assertEquals(f, sample)
        case other => fail(s"got $other")
      }
      assertEquals(BloomFilterReader.read(in, len, -1L, -1, SbbfKernels.get()), FilterFound.Absent)
    }
  }

  private def assertBroken(dir: NioPath, bytes: Array[Byte], offset: Long, length: Int, why: String): Unit =
    withStream(dir, bytes) { (in, len) =>
      BloomFilterReader.read(in, len, offset, length, SbbfKernels.get()) match {
        case FilterFound.Broken(reason, _, transient) =>
          assert(reason.contains(why), s"'$reason' should mention '$why'")
          assert(!transient, "a bad filter is not an I/O error: it may be cached")
        case other => fail(s"expected Broken($why), got $other")
      }
    }

  tmp.test("broken or hostile filters are reported, never thrown, never over-allocated") { dir =>
    val good = encode(header(96), sample.toBytes)
    assertBroken(dir, good, good.length + 5L, -1, "outside file")
    assertBroken(dir, good, 0, good.length + 1, "past the file")
    assertBroken(dir, good, 0, Int.MaxValue, "out of range")
    assertBroken(dir, good, 0, 0, "out of range")
    assertBroken(dir, good.dropRight(1), 0, -1, "past the file")
    assertBroken(dir, good, 0, good.length - 1, "only")
    assertBroken(dir, encode(header(100), new Array[Byte](100)), 0, -1, "multiple of 32")
    assertBroken(dir, encode(header(-32), Array.emptyByteArray), 0, -1, "multiple of 32")
    assertBroken(dir, encode(header(Int.MaxValue & ~31), new Array[Byte](64)), 0, -1, "multiple of 32")
    assertBroken(dir, Array.fill[Byte](200)(0x7f), 0, 200, "header")
    assertBroken(dir, Array.fill[Byte](200)(0x7f), 0, -1, "header")
    // Hand-made compact-protocol headers: numBytes=96 (zigzag 0xC0 0x01) then ...
    val noHash = Array(0x15, 0xc0, 0x01, 0x1c, 0x1c, 0x00, 0x00, 0x00).map(_.toByte)
    assertBroken(dir, noHash ++ sample.toBytes, 0, -1, "header")
    // ... an algorithm union holding an unknown member (field 2) instead of BLOCK.
    val otherAlgorithm = Array(0x15, 0xc0, 0x01, 0x1c, 0x2c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00,
      0x00).map(_.toByte)
    assertBroken(dir, otherAlgorithm ++ sample.toBytes, 0, -1, "")
  }

  tmp.test("a negative or oversized bloom_filter_length is broken, not read") { dir =>
    val good = encode(header(96), sample.toBytes)
    assertBroken(dir, good, 0, -7, "out of range")
    assertBroken(dir, good, 0, SplitBlockBloomFilter.MaxBytes + BloomFilterReader.MaxHeaderBytes + 1, "out of range")
  }

  tmp.test("readMany: hostile requests are broken in place, the good one still loads") { dir =>
    val prefix = Array.fill[Byte](10)(7)
    val good = encode(header(96), sample.toBytes)
    withStream(dir, prefix ++ good) { (in, len) =>
      val requests = IndexedSeq((10L, Int.MaxValue), (10L, good.length), (10L, -7), (10L, good.length + 1),
        (len + 5, 100), (10L, 0), (-1L, -1)).map((BloomFilterReader.FilterAt.apply _).tupled)
      val reads = BloomFilterReader.readMany(in, len, requests, SbbfKernels.get())
      assertEquals(reads(1), FilterFound.Loaded(sample, good.length.toLong))
      assertEquals(reads.last, FilterFound.Absent)
      for (i <- Seq(0, 2, 3, 4, 5)) assert(reads(i).isInstanceOf[FilterFound.Broken], s"request $i: ${reads(i)}")
    }
  }

  test("coalescing never builds a read beyond its bound") {
    val MiB = 1 << 20
    // 300 filters 1 MiB apart (each within the gap of the last), then one of the largest stated length.
    val requests = (0 until 300).map(i => BloomFilterReader.FilterAt(i.toLong * MiB, 1024)) :+
      BloomFilterReader.FilterAt(400L * MiB, SplitBlockBloomFilter.MaxBytes + BloomFilterReader.MaxHeaderBytes)
    val groups = BloomFilterReader.coalesce(requests, requests.indices)
    assertEquals(groups.flatMap(_.members).sorted, requests.indices.toList)
    assert(groups.size > 2, "300 MiB of filters cannot be one read")
    groups.init.foreach(g => assert(g.end - g.start <= BloomFilterReader.MaxCoalescedBytes, g.toString.take(80)))
    assertEquals(groups.last.members, Vector(300))
    // Neighbours within the gap share one read.
    assertEquals(BloomFilterReader.coalesce(IndexedSeq((0L, 100), (500L, 100), (300L, 50)).map((BloomFilterReader.FilterAt.apply _).tupled),
        Seq(0, 1, 2)),
      List(BloomFilterReader.Group(0, 600, Vector(0, 2, 1))))
  }

  tmp.test("filters written by parquet-java read back and contain every written value") { dir =>
    val schema = MessageTypeParser.parseMessageType(
      "message m { required int64 id; required binary name (UTF8); required double score; required int32 small; }")
    val path = new Path(dir.resolve("pj.parquet").toUri)
    val writer = ExampleParquetWriter.builder(path).withType(schema)
      .withRowGroupSize(64L * 1024).withPageSize(4096).withDictionaryEncoding(false)
      .withBloomFilterEnabled(true).withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0).build()
    val groups = new SimpleGroupFactory(schema)
    val n = 20000
    try for (i <- 0 until n)
        writer.write(groups.newGroup().append("id", i * 7919L).append("name", s"user-$i-ü")
            .append("score", i * 0.5).append("small", i - 10000))
    finally writer.close()

    val file = HadoopInputFile.fromPath(path, new Configuration())
    Using.resources(ParquetFileReader.open(file), file.newStream()) { (reader, in) =>
      val blocks = reader.getFooter.getBlocks.asScala
      assert(blocks.size > 1, "want several row groups")
      val filters = blocks.map(b =>
        b.getColumns.asScala.map(c =>
          c.getPath.toDotString ->
            (BloomFilterReader.read(in, file.getLength, c) match {
              case FilterFound.Loaded(f, _) => f
              case other => fail(s"${c.getPath}: $other")
            })).toMap)
      var row = 0L
      for ((b, f) <- blocks.zip(filters); i <- row until row + b.getRowCount) {
        val v = i.toInt
        assert(f("id").mightContain(ParquetHash.int64(v * 7919L)))
        assert(f("name").mightContain(ParquetHash.bytes(s"user-$v-ü".getBytes("UTF-8"))))
        assert(f("score").mightContain(ParquetHash.double(v * 0.5)))
        assert(f("small").mightContain(ParquetHash.int32(v - 10000)))
        if (i == row + b.getRowCount - 1) row += b.getRowCount
      }
      assertEquals(row, n.toLong)
      // The reader's own bytes equal parquet-java's view of the same filter.
      val pj = reader.readBloomFilter(blocks.head.getColumns.get(0))
      val out = new ByteArrayOutputStream(); pj.writeTo(out)
      assertEquals(filters.head("id").toBytes.toSeq, out.toByteArray.toSeq)
    }
  }
}
