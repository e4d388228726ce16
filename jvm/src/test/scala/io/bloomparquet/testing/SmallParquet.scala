package io.bloomparquet.testing

import java.nio.file.{Files, Path => NioPath}

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.MessageTypeParser

/**
 * Small parquet-java files for tests: row `r` has `key = 2 * r` (odd keys are
 * absent but inside every row group's min/max) and `name = "n" + r % 7`, in
 * row groups of a few KiB; parquet-java writes a bloom filter on `key` in each.
 */
object SmallParquet {
  val Schema = MessageTypeParser.parseMessageType("message m { required int64 key; required binary name (UTF8); }")

  def write(dir: NioPath, rows: Int = 3000, keyValue: Option[(String, String)] = None): NioPath = {
    val path = dir.resolve(s"small-$rows.parquet")
    Files.deleteIfExists(path)
    val builder = ExampleParquetWriter.builder(new Path(path.toUri)).withType(Schema)
      .withRowGroupSize(4L * 1024).withPageSize(1024)
      .withBloomFilterEnabled("key", true).withBloomFilterNDV("key", 1000L)
    val writer = keyValue.fold(builder)(kv => builder.withExtraMetaData(Map(kv).asJava)).build()
    val g = new SimpleGroupFactory(Schema)
    try for (r <- 0 until rows) writer.write(g.newGroup().append("key", 2L * r).append("name", s"n${r % 7}"))
    finally writer.close()
    path
  }

  def footer(path: NioPath): ParquetMetadata = {
    val reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(path.toUri), new Configuration()))
    try reader.getFooter
    finally reader.close()
  }

  /** Where the footer of a file's `bytes` starts. */
  def footerStart(bytes: Array[Byte]): Long =
    bytes.length - 8L - java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt

  /** A copy of `path` beside it, its bytes changed by `damage`. */
  def damaged(path: NioPath, name: String)(damage: Array[Byte] => Array[Byte]): NioPath = {
    val out = path.resolveSibling(name)
    Files.write(out, damage(Files.readAllBytes(path)))
    out
  }
}
