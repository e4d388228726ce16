package io.bloomparquet.digest

import io.bloomparquet.kernel.SbbfKernel

/**
 * One size class of a bloom digest: `entries` filters (one per row group's column chunk) of
 * `blocks` blocks each, stored block-major: row b holds block b of every entry, in entry order,
 * 32 bytes each. A value's block in every entry of the class is the same b (the spec's block
 * index depends only on the hash and the block count), so a point probe reads one row, one
 * contiguous range, and checks every entry of the class in one pass.
 */
final case class BlockMajorClass(blocks: Int, entries: Int) {
  require(blocks >= 1 && entries >= 1, s"a class of $entries entries of $blocks blocks")

  /** Bytes of one row: a block of every entry. */
  def rowBytes: Long = entries * BlockMajorClass.BlockBytes

  /** Bytes of the class. */
  def bytes: Long = blocks * rowBytes

  /** The row holding `hash`'s block of every entry. */
  def row(hash: Long): Int = SbbfKernel.blockIndex(hash, blocks)

  /** Where row `r` starts within the class's bytes. */
  def rowOffset(r: Int): Long = r * rowBytes

  /** The rows `hashes` need, each once, ascending: an IN list of n values reads at most n rows. */
  def rows(hashes: Array[Long]): Array[Int] = hashes.map(row).distinct.sorted
}

object BlockMajorClass {
  val BlockBytes: Long = 32L
  private val WordsPerBlock = 8

  /** The words of a class, block-major, from its entries' filters in entry order (every one of the same size). */
  def transpose(filters: IndexedSeq[Array[Int]]): Array[Int] = {
    require(filters.nonEmpty, "a class holds at least one entry")
    val words = filters.head.length
    require(words >= WordsPerBlock && words % WordsPerBlock == 0 && filters.forall(_.length == words),
      s"every entry of a class has the same whole number of blocks: ${filters.map(_.length / 8.0).distinct.mkString(", ")}")
    val entries = filters.size
    val out = new Array[Int](words * entries)
    var e = 0
    while (e < entries) {
      val filter = filters(e)
      var b = 0
      while (b < words / WordsPerBlock) {
        System.arraycopy(filter, b * WordsPerBlock, out, (b * entries + e) * WordsPerBlock, WordsPerBlock)
        b += 1
      }
      e += 1
    }
    out
  }

  /** The words of row `r` of a class held whole (`words` as [[transpose]] makes them). */
  def rowOf(words: Array[Int], c: BlockMajorClass, r: Int): Array[Int] = {
    val width = c.entries * WordsPerBlock
    java.util.Arrays.copyOfRange(words, r * width, (r + 1) * width)
  }

  /** Entry `e`'s filter, taken back out of a class held whole (`words` as [[transpose]] makes them). */
  def entryWords(words: Array[Int], c: BlockMajorClass, e: Int): Array[Int] = {
    val out = new Array[Int](c.blocks * WordsPerBlock)
    var b = 0
    while (b < c.blocks) {
      System.arraycopy(words, (b * c.entries + e) * WordsPerBlock, out, b * WordsPerBlock, WordsPerBlock)
      b += 1
    }
    out
  }

  /** Which entries may hold the value of `hash`, given the words of its row ([[BlockMajorClass.row]]). */
  def probe(row: Array[Int], hash: Long, kernel: SbbfKernel): Array[Boolean] = {
    val out = new Array[Boolean](row.length / WordsPerBlock)
    kernel.checkEveryBlock(row, hash, out)
    out
  }
}
