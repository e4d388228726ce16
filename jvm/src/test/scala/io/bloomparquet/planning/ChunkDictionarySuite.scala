package io.bloomparquet.planning

import java.nio.file.{Files, Path => NioPath}

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.ByteRange
import io.bloomparquet.pruning.DictionaryEncoded
import io.bloomparquet.sbbf.ParquetHash
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.column.{Encoding, EncodingStats}
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.{CodecFactory, ParquetFileReader}
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.hadoop.metadata.{ColumnChunkMetaData, CompressionCodecName, ParquetMetadata}
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.io.api.Binary
import org.apache.parquet.schema.MessageTypeParser

class ChunkDictionarySuite extends munit.FunSuite {
  private val conf = new Configuration()
  private lazy val dir = Files.createTempDirectory("chunk-dictionary")

  /** One row group: `s` cycles through 50 strings (some bytes not UTF-8), `d` through 4 doubles incl. -0.0. */
  private def write(name: String, codec: CompressionCodecName, dictionaryPageBytes: Int = 1 << 20): NioPath = {
    val schema = MessageTypeParser.parseMessageType("message m { required binary s (UTF8); required double d; }")
    val path = dir.resolve(name)
    val writer = ExampleParquetWriter.builder(new Path(path.toUri)).withType(schema).withCompressionCodec(codec)
      .withDictionaryEncoding(true).withDictionaryPageSize(dictionaryPageBytes).withPageSize(512).build()
    val g = new SimpleGroupFactory(schema)
    try for (r <- 0 until 2000)
        writer.write(g.newGroup().append("s", Binary.fromConstantByteArray(value(r % 50)))
            .append("d", Seq(0.0, -0.0, 1.5, 1e300)(r % 4)))
    finally writer.close()
    path
  }

  private def value(i: Int): Array[Byte] = if (i % 10 == 0) Array[Byte](-1, i.toByte) else f"v$i%03d".getBytes("UTF-8")

  private def footer(path: NioPath): ParquetMetadata = {
    val reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(path.toUri), conf))
    try reader.getFooter
    finally reader.close()
  }

  private def read(path: NioPath, column: Int, bytes: Array[Byte] = null): ChunkDictionary = {
    val meta = footer(path)
    val chunk = meta.getBlocks.get(0).getColumns.get(column)
    val descriptor = meta.getFileMetaData.getSchema.getColumns.get(column)
    val file = if (bytes == null) path else Files.write(dir.resolve(s"copy-${System.nanoTime}"), bytes)
    val in = HadoopInputFile.fromPath(new Path(file.toUri), conf).newStream()
    val codecs = new CodecFactory(conf, 0)
    try ChunkDictionary.read(in, chunk, descriptor, codecs)
    finally { in.close(); codecs.release() }
  }

  test("a dictionary holds the hashes of every value, and no other, for each codec") {
    for (codec <- Seq(CompressionCodecName.UNCOMPRESSED, CompressionCodecName.SNAPPY, CompressionCodecName.ZSTD,
        CompressionCodecName.GZIP)) {
      val path = write(s"plain-$codec.parquet", codec)
      val chunk = footer(path).getBlocks.get(0).getColumns.get(0)
      assert(ChunkDictionary.readable(chunk), codec)
      read(path, 0) match {
        case ChunkDictionary.Values(h, bytes) =>
          assertEquals(h.size, 50)
          assert(bytes > 0)
          assert((0 until 50).forall(i => h.mightContain(ParquetHash.bytes(value(i)))), codec)
          assert(!h.mightContain(ParquetHash.bytes("v050".getBytes("UTF-8"))))
          assert(!h.mightContain(ParquetHash.bytes(Array[Byte](-1, 1))))
        case other => fail(s"$codec: $other")
      }
      read(path, 1) match {
        case ChunkDictionary.Values(h, _) =>
          // Bits, as stored: both zeros are there, each its own value; LiteralEncoder probes both for 0.0.
          assert(Seq(0.0, -0.0, 1.5, 1e300).forall(d => h.mightContain(ParquetHash.double(d))))
          assert(!h.mightContain(ParquetHash.double(2.5)))
        case other => fail(s"$codec: $other")
      }
    }
  }

  test("a chunk that fell back to plain pages is not readable: its dictionary misses later values") {
    val path = write("fallback.parquet", CompressionCodecName.SNAPPY, dictionaryPageBytes = 64)
    val chunk = footer(path).getBlocks.get(0).getColumns.get(0)
    assert(chunk.getEncodingStats.hasNonDictionaryEncodedPages)
    assert(!ChunkDictionary.readable(chunk))
  }

  /** The values of column `s` as parquet-java's reader decodes them, None where it fails. */
  private def decoded(file: NioPath): Option[Set[Seq[Byte]]] = scala.util.Try {
    val reader = org.apache.parquet.hadoop.ParquetReader
      .builder(new org.apache.parquet.hadoop.example.GroupReadSupport(), new Path(file.toUri)).build()
    try Iterator.continually(reader.read()).takeWhile(_ != null).map(_.getBinary("s", 0).getBytes.toSeq).toSet
    finally reader.close()
  }.toOption

  test("damaged pages are unusable or hold what the data pages decode to: the dictionary is the data") {
    val path = write("damaged.parquet", CompressionCodecName.SNAPPY)
    val chunk = footer(path).getBlocks.get(0).getColumns.get(0)
    val ByteRange(offset, length) = DictionaryEncoded.pageRange(chunk).get
    val original = Files.readAllBytes(path)
    def damaged(at: Long, b: Byte): Array[Byte] = { val c = original.clone(); c(at.toInt) = b; c }
    // The header's first field (the page type) turned into a data page's; the body's last byte flipped.
    val asDataPage = read(path, 0, damaged(offset + 1, 0x00))
    assert(asDataPage.isInstanceOf[ChunkDictionary.Unusable], asDataPage)
    // A flipped byte in the body may decode to other values: Spark's reader then decodes the rows to them too.
    for (at <- Seq(offset + length - 1, offset + length / 2)) {
      val bytes = damaged(at, (original(at.toInt) ^ 0x5a).toByte)
      read(path, 0, bytes) match {
        case ChunkDictionary.Values(h, _) =>
          val copy = Files.write(dir.resolve(s"read-${System.nanoTime}"), bytes)
          decoded(copy).foreach(values => assert(values.forall(v => h.mightContain(ParquetHash.bytes(v.toArray))), at))
        case _: ChunkDictionary.Unusable =>
      }
    }
  }

  test("which chunks have every data page dictionary-encoded") {
    val binary = org.apache.parquet.schema.Types.required(
      org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY).named("s")
    // Its dictionary page at byte 4, its first data page at 10.
    def chunk(stats: EncodingStats, encodings: Encoding*): ColumnChunkMetaData = ColumnChunkMetaData.get(
      org.apache.parquet.hadoop.metadata.ColumnPath.get("s"), binary, CompressionCodecName.SNAPPY, stats,
      encodings.toSet.asJava, org.apache.parquet.column.statistics.Statistics.createStats(binary), 10, 4, 100, 1000, 1000)
    def stats(dictionaryPages: Boolean, data: Encoding*): EncodingStats = {
      val b = new EncodingStats.Builder()
      if (dictionaryPages) b.addDictEncoding(Encoding.PLAIN)
      data.foreach(b.addDataEncoding)
      b.build()
    }
    val plainDictionary = DictionaryEncoded.PlainDictionary
    assert(DictionaryEncoded.allPages(chunk(stats(true, Encoding.RLE_DICTIONARY), Encoding.RLE_DICTIONARY)))
    assert(!DictionaryEncoded.allPages(chunk(stats(true, Encoding.RLE_DICTIONARY, Encoding.PLAIN), Encoding.PLAIN)))
    assert(!DictionaryEncoded.allPages(chunk(stats(false, Encoding.PLAIN), Encoding.PLAIN)))
    // Without stats: 1.0 encodings alone, never a 2.0 RLE_DICTIONARY (a fallback would not show).
    assert(DictionaryEncoded.allPages(chunk(null, plainDictionary, Encoding.RLE)))
    assert(!DictionaryEncoded.allPages(chunk(null, plainDictionary, Encoding.PLAIN, Encoding.RLE)))
    assert(!DictionaryEncoded.allPages(chunk(null, Encoding.RLE_DICTIONARY, Encoding.RLE)))
    // A dictionary page offset of 0 (some writers' "none") or past the data pages is not read.
    assertEquals(DictionaryEncoded.pageRange(chunk(null, plainDictionary)), Some(ByteRange(4, 6)))
  }
}
