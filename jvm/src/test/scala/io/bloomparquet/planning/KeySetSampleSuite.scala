package io.bloomparquet.planning

import java.nio.file.Files

import io.bloomparquet.schema.FileColumn
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.schema.MessageTypeParser

/** A key-set sample finds its column as the table names it: by name, or by field id whatever the file calls it. */
class KeySetSampleSuite extends munit.FunSuite {

  // Field ids as Iceberg writes them; the table has since renamed `key` (id 7) to `k`.
  private val schema = MessageTypeParser.parseMessageType("message m { required int64 key = 7; required binary name (UTF8) = 8; }")

  private lazy val file: FileStatus = {
    val path = Files.createTempDirectory("bp-sample").resolve("ids.parquet")
    val writer = ExampleParquetWriter.builder(new Path(path.toUri)).withType(schema)
      .withRowGroupSize(4L * 1024).withPageSize(1024).withBloomFilterEnabled("key", true).withBloomFilterNDV("key", 1000L).build()
    val g = new SimpleGroupFactory(schema)
    try for (r <- 0 until 3000) writer.write(g.newGroup().append("key", 2L * r).append("name", s"n${r % 7}"))
    finally writer.close()
    val f = path.toFile
    new FileStatus(f.length, false, 1, 4096, f.lastModified, new Path(path.toUri))
  }

  private def sample(column: FileColumn) = KeySetSample.of(Seq(file), column, caseSensitive = false, new Configuration(), useCache = false)

  test("by field id, a renamed column's filters are sampled under the name the file gives it") {
    val byId = sample(FileColumn.FieldIds("k", Seq(7))).getOrElse(fail("the sample could not be read"))
    assertEquals(byId.size, 2) // the first and the middle row group
    assert(byId.forall(_.fpp.isDefined), byId)
    assertEquals(sample(FileColumn.topLevel("key")), Some(byId))
  }

  test("a column the file lacks adds no sample: nothing known") {
    assertEquals(sample(FileColumn.FieldIds("k", Seq(9))), Some(Nil))
    assertEquals(sample(FileColumn.topLevel("k")), Some(Nil))
  }

  test("a column without filters is sampled as such") {
    val byId = sample(FileColumn.FieldIds("name", Seq(8))).getOrElse(fail("the sample could not be read"))
    assert(byId.nonEmpty && byId.forall(_.fpp.isEmpty), byId)
  }
}
