package io.bloomparquet.digest

import java.util.SplittableRandom

import io.bloomparquet.kernel.KernelSuite
import io.bloomparquet.sbbf.SplitBlockBloomFilter

/** One row of a block-major class answers, for every entry, what that entry's own filter answers. */
class BlockMajorClassSuite extends KernelSuite {
  private def filters(blocks: Int, entries: Int, seed: Long): IndexedSeq[SplitBlockBloomFilter] = {
    val random = new SplittableRandom(seed)
    (0 until entries).map { _ =>
      val f = SplitBlockBloomFilter(blocks * 32)
      Array.fill(blocks * 20)(random.nextLong()).foreach(f.insertHash)
      f
    }
  }

  // Block counts that are powers of two and not (a class may hold filters that cannot fold).
  for (name <- kernelNames; (blocks, entries) <- Seq((1, 1), (1, 50), (16, 7), (37, 33), (1024, 130)))
    test(s"$name: $entries entries of $blocks blocks, every probe as the entries' own filters") {
      val k = kernel(name)
      val own = filters(blocks, entries, blocks * 1000L + entries)
      val c = BlockMajorClass(blocks, entries)
      val words = BlockMajorClass.transpose(own.map(_.words))
      assertEquals(words.length.toLong * 4, c.bytes)
      val random = new SplittableRandom(entries.toLong)
      val probes = Array.fill(2000)(random.nextLong())
      for (h <- probes) {
        val row = BlockMajorClass.rowOf(words, c, c.row(h))
        assertEquals(BlockMajorClass.probe(row, h, k).toSeq, own.map(_.mightContain(h)), s"hash $h")
      }
    }

  test("an inserted value is found in its entry's block of its row") {
    val random = new SplittableRandom(11)
    val hashes = Array.fill(40)(random.nextLong())
    val own = (0 until 40).map { e =>
      val f = SplitBlockBloomFilter(64 * 32)
      f.insertHash(hashes(e))
      f
    }
    val c = BlockMajorClass(64, 40)
    val words = BlockMajorClass.transpose(own.map(_.words))
    for (e <- 0 until 40) {
      val found = BlockMajorClass.probe(BlockMajorClass.rowOf(words, c, c.row(hashes(e))), hashes(e), kernel("scalar"))
      assert(found(e), s"entry $e lost its value")
    }
  }

  test("an IN list reads each row once, ascending; rows are where the class's bytes say") {
    val c = BlockMajorClass(1024, 10)
    val hashes = Array(0L, 1L << 32, (1L << 32) + 5, -1L)
    assertEquals(c.rows(hashes).toSeq, Seq(0, 1023))
    assertEquals(c.rowOffset(1023), 1023L * 320)
    assertEquals(c.bytes, 1024L * 320)
  }

  test("entries of different sizes are refused") {
    intercept[IllegalArgumentException](BlockMajorClass.transpose(IndexedSeq(new Array[Int](8), new Array[Int](16))))
  }
}
