package io.bloomparquet.write

import java.nio.file.Files

import scala.jdk.CollectionConverters._
import scala.util.Using

import io.bloomparquet.options.BloomColumn
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound, ParquetHash}
import org.apache.hadoop.conf.Configuration
import org.apache.parquet.example.data.Group
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.api.WriteSupport
import org.apache.parquet.hadoop.example.GroupWriteSupport
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetWriter}
import org.apache.parquet.io.{LocalInputFile, LocalOutputFile, OutputFile}
import org.apache.parquet.schema.MessageTypeParser

/** The write mechanism without Spark: parquet-java's example object model through our WriteSupport wrapper and splicing OutputFile. */
class WriterMechanismSuite extends munit.FunSuite {
  private val schema = MessageTypeParser.parseMessageType(
    "message m { required int64 id; optional binary name (UTF8); optional group s { optional int32 x; } }")
  private val columns = Seq(BloomColumn(Seq("id"), 0.01, None), BloomColumn(Seq("name"), 0.01, None),
    BloomColumn(Seq("s", "x"), 0.05, None))
  private val rows = 30000

  private final class Builder(file: OutputFile, support: WriteSupport[Group])
      extends ParquetWriter.Builder[Group, Builder](file) {
    override protected def self(): Builder = this
    override protected def getWriteSupport(conf: Configuration): WriteSupport[Group] = support
  }

  private def write(path: java.nio.file.Path, breakRowCounts: Boolean): Unit = {
    val conf = new Configuration()
    GroupWriteSupport.setSchema(schema, conf)
    var support: BloomWriteSupport[Group] = null
    val groups = () => if (breakRowCounts) support.rowGroups.map(g => g.copy(rows = g.rows + 1)) else support.rowGroups
    val file = new SplicingOutputFile(new LocalOutputFile(path), columns, groups)
    support = new BloomWriteSupport[Group](new GroupWriteSupport(), columns, () => file.startBuffering())
    val factory = new SimpleGroupFactory(schema)
    Using.resource(new Builder(file, support).withConf(conf).withRowGroupSize(128L * 1024).withPageSize(8 * 1024)
        .withBloomFilterEnabled("name", true).build()) { w =>
      for (i <- 0 until rows) {
        val g = factory.newGroup().append("id", i.toLong * 31)
        if (i % 10 != 0) g.append("name", s"name-${i % 700}")
        g.addGroup("s").append("x", i % 1234)
        w.write(g)
      }
    }
  }

  test("filters for every chunk, sized for the chunk, every value present, contiguous, with lengths") {
    val path = Files.createTempDirectory("bp").resolve("f.parquet")
    write(path, breakRowCounts = false)
    val input = new LocalInputFile(path)
    Using.resources(ParquetFileReader.open(input), input.newStream()) { (reader, in) =>
      val blocks = reader.getFooter.getBlocks.asScala
      assert(blocks.size >= 3, s"${blocks.size} row groups")
      var first = 0L
      val ranges = for ((block, rg) <- blocks.zipWithIndex.toSeq; chunk <- block.getColumns.asScala.toSeq) yield {
        val start = first
        val dotted = chunk.getPath.toDotString
        val read = BloomFilterReader.read(in, Files.size(path), chunk)
        val filter = read match {
          case FilterFound.Loaded(f, _) => f
          case other => fail(s"$rg/$dotted: $other")
        }
        val rowsIn = (start until start + block.getRowCount).map(_.toInt)
        val hashes = dotted match {
          case "id" => rowsIn.map(i => ParquetHash.int64(i.toLong * 31))
          case "name" => rowsIn.filter(_ % 10 != 0).map(i => ParquetHash.bytes(s"name-${i % 700}".getBytes("UTF-8")))
          case "s.x" => rowsIn.map(i => ParquetHash.int32(i % 1234))
        }
        val fpp = if (dotted == "s.x") 0.05 else 0.01
        assert(filter.checkHashes(hashes.toArray).forall(identity), s"$rg/$dotted")
        assertEquals(filter.numBytes, FilterSizing.numBytes(hashes.distinct.size.toLong, fpp), s"$rg/$dotted")
        if (dotted == "s.x") first += block.getRowCount
        (chunk.getBloomFilterOffset, chunk.getBloomFilterLength)
      }
      val sorted = ranges.sortBy(_._1)
      sorted.zip(sorted.tail).foreach { case ((o1, l1), (o2, _)) => assertEquals(o1 + l1, o2) }
    }
  }

  test("a tail that does not match what was hashed is written unchanged: valid file, no filters of ours") {
    val path = Files.createTempDirectory("bp").resolve("f.parquet")
    write(path, breakRowCounts = true)
    val input = new LocalInputFile(path)
    Using.resource(ParquetFileReader.open(input)) { reader =>
      val chunks = reader.getFooter.getBlocks.asScala.flatMap(_.getColumns.asScala)
      assertEquals(reader.getFooter.getBlocks.asScala.map(_.getRowCount).sum, rows.toLong)
      // Only parquet-java's own filter (name) remains.
      assertEquals(chunks.filter(_.getBloomFilterOffset >= 0).map(_.getPath.toDotString).toSet, Set("name"))
    }
  }
}
