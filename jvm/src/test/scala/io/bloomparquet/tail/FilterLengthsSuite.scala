package io.bloomparquet.tail

import java.nio.file.Files

import scala.jdk.CollectionConverters._

import io.bloomparquet.pruning.ChunkAt
import io.bloomparquet.testing.SmallParquet

/**
 * `bloom_filter_length` from a footer's thrift bytes ([[FilterLengths]], what Spark 3.5's
 * parquet-java can't give): the same as parquet-java 1.15's footer model says for every chunk,
 * and nothing from bytes that are not a footer.
 */
class FilterLengthsSuite extends munit.FunSuite {
  private lazy val dir = Files.createTempDirectory("bp-lengths")

  private def footerBytes(rows: Int): (Array[Byte], Int, Int) = {
    val bytes = Files.readAllBytes(SmallParquet.write(dir, rows))
    val (at, length) = FooterTail.locateFooter(bytes).toOption.get
    (bytes, at, length)
  }

  test("each chunk's length is parquet-java's: the filtered column's, none for the other") {
    val path = SmallParquet.write(dir, 3000)
    val expected = SmallParquet.footer(path).getBlocks.asScala.toIndexedSeq
      .map(_.getColumns.asScala.toIndexedSeq.map(c => Some(c.getBloomFilterLength).filter(_ != -1)))
    val (bytes, at, length) = footerBytes(3000)
    val found = FilterLengths.read(bytes, at, length)
    assert(expected.size > 1, expected)
    assert(expected.forall(rg => rg.head.isDefined && rg(1).isEmpty), expected)
    assertEquals(found, expected)
  }

  test("the lengths travel with their footer as a table of its chunks; a table of another footer's shape is dropped") {
    val path = SmallParquet.write(dir, 3000)
    val footer = SmallParquet.footer(path)
    val (bytes, at, length) = footerBytes(3000)
    val found = FilterLengths.read(bytes, at, length)
    val table = FilterLengths.matching(footer, found)
    for ((chunks, rg) <- found.zipWithIndex; (expected, c) <- chunks.zipWithIndex) assertEquals(table(rg, c), expected)
    assertEquals(table(found.size, 0), None)
    assert(table.heapBytes > 0)
    val shorter = FilterLengths.matching(footer, found.drop(1))
    assertEquals(shorter(0, 0), None)
    assertEquals(FilterLengths.matching(footer, found.map(_.drop(1)))(0, 0), None)
    // parquet-java 1.15's model holds them: nothing is read from the bytes, and the index answers from the model.
    assertEquals(FilterLengths.of(footer, bytes, at, length)(0, 0), None)
    val index = new io.bloomparquet.planning.FileBloomIndex(footer, FilterLengths.Empty)
    assertEquals(index.filterLength(ChunkAt(0, 0)), found(0)(0))
  }

  test("bytes that are not a footer give nothing, however deep they nest") {
    val (bytes, at, length) = footerBytes(3000)
    assertEquals(FilterLengths.read(bytes, at, length / 2), IndexedSeq.empty)
    // Field 1 of type struct, 100,000 times over (compact protocol: delta 1, type 12): skipping
    // it would recurse without end; the walker gives up at its depth bound.
    val nested = Array.fill[Byte](100000)(0x1c)
    assertEquals(FilterLengths.read(nested, 0, nested.length), IndexedSeq.empty)
    // A list of row groups that are not structs.
    assertEquals(FilterLengths.read(Array[Byte](0x49, 0x35, 0, 0, 0), 0, 5), IndexedSeq.empty)
  }
}
