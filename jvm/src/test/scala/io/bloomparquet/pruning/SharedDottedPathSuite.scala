package io.bloomparquet.pruning

import java.nio.file.Files

import scala.jdk.CollectionConverters._
import scala.util.Using

import io.bloomparquet.pruning.BloomPredicate.ColumnIn
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64
import org.apache.parquet.schema.Types
import org.apache.spark.sql.types.LongType

/**
 * A top-level `a.b` next to field `b` of struct `a`, written by parquet-java
 * with filters on both: it keys filters by the dotted path, so one column's
 * filter is written for both. Neither is probed; statistics still prune.
 */
class SharedDottedPathSuite extends munit.FunSuite {

  private val schema = Types.buildMessage()
    .required(INT64).named("id")
    .required(INT64).named("a.b")
    .requiredGroup().required(INT64).named("b").named("a")
    .named("m")

  // Top-level `a.b` holds 1000..1999, field a.b 0..999: no value in common; id 0, 2, .., 1998.
  private lazy val file: java.nio.file.Path = {
    val path = Files.createTempDirectory("bp-dotted").resolve("d.parquet")
    val writer = ExampleParquetWriter.builder(new Path(path.toUri)).withType(schema)
      .withBloomFilterEnabled("a.b", true).withBloomFilterEnabled("id", true).build()
    val g = new SimpleGroupFactory(schema)
    try for (i <- 0 until 1000) {
        val row = g.newGroup().append("id", 2L * i).append("a.b", 1000L + i)
        row.addGroup("a").append("b", i.toLong)
        writer.write(row)
      }
    finally writer.close()
    path
  }

  private def verdict(p: BloomPredicate): (RowGroupVerdict, CompiledPredicate) = {
    val input = HadoopInputFile.fromPath(new Path(file.toUri), new Configuration())
    Using.resources(ParquetFileReader.open(input), input.newStream()) { (reader, in) =>
      val blocks = reader.getFooter.getBlocks.asScala.toIndexedSeq
      val compiled = CompiledPredicate.compile(p, reader.getFooter.getFileMetaData.getSchema, caseSensitive = true)
      val filters = blocks.indices.flatMap(rg =>
        blocks(rg).getColumns.asScala.indices.map(c =>
          ChunkAt(rg, c) ->
            (BloomFilterReader.read(in, input.getLength, blocks(rg).getColumns.get(c)) match {
              case FilterFound.Loaded(f, _) => Some(f)
              case _ => None
            }))).toMap
      assert(filters.values.count(_.nonEmpty) == 3, "parquet-java wrote a filter for id, `a.b` and a.b")
      (RowGroupPruner.decide(compiled, blocks, filters).head, compiled)
    }
  }

  test("leaves sharing a dotted path are found; others are not") {
    assertEquals(CompiledPredicate.sharedDottedPaths(schema), Set(1, 2))
  }

  test("a value of either column keeps the row group; their filters are not probed") {
    for ((path, value) <- Seq(Seq("a.b") -> 1500L, Seq("a", "b") -> 500L, Seq("a.b") -> 1000L, Seq("a", "b") -> 999L)) {
      val (v, compiled) = verdict(ColumnIn(path, LongType, IndexedSeq(value)))
      assertEquals(v, RowGroupVerdict.Keep, s"$path = $value")
      assertEquals(compiled.asInstanceOf[CompiledPredicate.Leaf].useFilter, false)
    }
  }

  test("statistics still prune them, and other columns' filters still prune") {
    assertEquals(verdict(ColumnIn(Seq("a.b"), LongType, IndexedSeq(5L)))._1, RowGroupVerdict.PrunedByStatistics)
    assertEquals(verdict(ColumnIn(Seq("a", "b"), LongType, IndexedSeq(1005L)))._1, RowGroupVerdict.PrunedByStatistics)
    // id holds even numbers: an odd one inside min/max only a filter rules out.
    assertEquals(verdict(ColumnIn(Seq("id"), LongType, IndexedSeq(501L)))._1, RowGroupVerdict.PrunedByBloomFilter)
  }
}
