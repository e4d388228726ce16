package io.bloomparquet.pruning

import java.nio.file.Files

import scala.jdk.CollectionConverters._
import scala.util.Using

import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn}
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.MessageTypeParser
import org.apache.spark.sql.types.{LongType, StringType}
import org.apache.spark.unsafe.types.UTF8String

/** Decisions on a real parquet-java file against a brute-force scan of its rows. */
class RowGroupPrunerSuite extends munit.FunSuite {

  private val rowsPerGroup = 1000
  private val groups = 6
  // key: unsorted, high cardinality; seq: sorted (statistics prune it); name: strings.
  private def key(row: Int): Long = (row.toLong * 2654435761L) % 1000003L * 2
  private def name(row: Int): String = s"n${key(row) % 5000}"

  private lazy val file: java.nio.file.Path = {
    val path = Files.createTempDirectory("bp-pruner").resolve("g.parquet")
    val schema = MessageTypeParser.parseMessageType(
      "message m { required int64 key; required int64 seq; optional binary name (UTF8); }")
    val writer = ExampleParquetWriter.builder(new Path(path.toUri)).withType(schema)
      .withRowGroupSize(24L * 1024).withBloomFilterEnabled("key", true).withBloomFilterNDV("key", rowsPerGroup.toLong)
      .withBloomFilterEnabled("name", true).withBloomFilterNDV("name", rowsPerGroup.toLong).build()
    val g = new SimpleGroupFactory(schema)
    try for (r <- 0 until rowsPerGroup * groups) writer.write(g.newGroup().append("key", key(r)).append("seq", r.toLong)
          .append("name", name(r)))
    finally writer.close()
    path
  }

  private def decide(p: BloomPredicate): (IndexedSeq[RowGroupVerdict], IndexedSeq[Set[Long]], IndexedSeq[Set[Long]]) = {
    val input = HadoopInputFile.fromPath(new Path(file.toUri), new Configuration())
    Using.resources(ParquetFileReader.open(input), input.newStream()) { (reader, in) =>
      val blocks = reader.getFooter.getBlocks.asScala.toIndexedSeq
      val compiled = CompiledPredicate.compile(p, reader.getFooter.getFileMetaData.getSchema, caseSensitive = false)
      val filters = RowGroupPruner.filtersWanted(compiled, blocks).map { case at @ ChunkAt(rg, c) =>
        at ->
          (BloomFilterReader.read(in, input.getLength, blocks(rg).getColumns.get(c)) match {
            case FilterFound.Loaded(f, _) => Some(f)
            case _ => None
          })
      }.toMap
      val verdicts = RowGroupPruner.decide(compiled, blocks, filters.getOrElse(_, None))
      var row = 0
      val keys = blocks.map { b =>
        val ks = (row until row + b.getRowCount.toInt).map(r => key(r)).toSet; row += b.getRowCount.toInt; ks
      }
      row = 0
      val seqs = blocks.map { b =>
        val ss = (row until row + b.getRowCount.toInt).map(_.toLong).toSet; row += b.getRowCount.toInt; ss
      }
      (verdicts, keys, seqs)
    }
  }

  test("several row groups were written") {
    assert(decide(BloomPredicate.NoMatch)._1.size > 3)
  }

  test("no false negatives and real pruning for random keys, present and absent") {
    val random = new scala.util.Random(3)
    var prunedMisses = 0
    var misses = 0
    for (_ <- 0 until 60) {
      val present = random.nextBoolean()
      val k = if (present) key(random.nextInt(rowsPerGroup * groups)) else random.nextInt(1000003) * 2L + 1
      val (verdicts, keys, _) = decide(ColumnIn(Seq("KEY"), LongType, IndexedSeq(k))) // case-insensitive
      for (rg <- verdicts.indices if keys(rg).contains(k)) assertEquals(verdicts(rg), RowGroupVerdict.Keep)
      if (!present) { misses += verdicts.size; prunedMisses += verdicts.count(_ == RowGroupVerdict.PrunedByBloomFilter) }
    }
    assert(prunedMisses >= misses * 0.9, s"$prunedMisses of $misses")
  }

  test("statistics prune sorted columns first; OR and AND combine") {
    val (v1, _, seqs) = decide(ColumnIn(Seq("seq"), LongType, IndexedSeq(5L)))
    assertEquals(v1.count(_ == RowGroupVerdict.Keep), 1)
    assertEquals(v1.count(_ == RowGroupVerdict.PrunedByStatistics), v1.size - 1)
    val lastSeq = seqs.last.max
    val either = AnyOf(Seq(ColumnIn(Seq("seq"), LongType, IndexedSeq(5L)), ColumnIn(Seq("seq"), LongType, IndexedSeq(lastSeq))))
    assertEquals(decide(either)._1.count(_ == RowGroupVerdict.Keep), 2)
    val both = AllOf(Seq(ColumnIn(Seq("seq"), LongType, IndexedSeq(5L)), ColumnIn(Seq("key"), LongType, IndexedSeq(key(5)))))
    assertEquals(decide(both)._1.count(_ == RowGroupVerdict.Keep), 1)
    val contradiction = AllOf(Seq(ColumnIn(Seq("seq"), LongType, IndexedSeq(5L)), ColumnIn(Seq("seq"), LongType, IndexedSeq(lastSeq))))
    assertEquals(decide(contradiction)._1.count(_ == RowGroupVerdict.Keep), 0)
  }

  test("missing columns and unknown types keep everything; strings probe bytes") {
    assert(decide(ColumnIn(Seq("nope"), LongType, IndexedSeq(1L)))._1.forall(_ == RowGroupVerdict.Keep))
    assert(decide(ColumnIn(Seq("key"), StringType, IndexedSeq(UTF8String.fromString("1"))))._1.forall(_ == RowGroupVerdict.Keep))
    val (v, _, _) = decide(ColumnIn(Seq("name"), StringType, IndexedSeq(UTF8String.fromString(name(0)))))
    assertEquals(v.head, RowGroupVerdict.Keep)
    val (miss, _, _) = decide(ColumnIn(Seq("name"), StringType, IndexedSeq(UTF8String.fromString("zzz-absent"))))
    assert(miss.count(_ != RowGroupVerdict.Keep) >= miss.size - 1)
  }
}
