package io.bloomparquet.tail

import java.nio.file.Files

import scala.jdk.CollectionConverters._
import scala.util.Random

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

  test("bytes that are not a footer give nothing") {
    val (bytes, at, length) = footerBytes(3000)
    assertEquals(FilterLengths.read(bytes, at, length / 2), IndexedSeq.empty)
    val random = new Random(7)
    for (_ <- 0 until 200) {
      val noise = Array.fill(random.nextInt(400))(random.nextInt(256).toByte)
      // Whatever noise happens to parse as, reading it never throws.
      assert(scala.util.Try(FilterLengths.read(noise, 0, noise.length)).isSuccess)
    }
  }
}
