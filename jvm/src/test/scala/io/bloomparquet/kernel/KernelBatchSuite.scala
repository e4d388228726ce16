package io.bloomparquet.kernel

import java.util.SplittableRandom

import io.bloomparquet.sbbf.{ParquetHash, SplitBlockBloomFilter}
import io.bloomparquet.write.HashBuffer

/**
 * The grouped batch paths (checkAll, checkAny, insertAll, the writer's sorted
 * distinct insert) equal the one-hash paths for every range: offsets, lengths
 * around the group size, duplicates inside one group.
 */
class KernelBatchSuite extends KernelSuite {

  private def filled(numBytes: Int, seed: Long): Array[Int] = {
    val words = new Array[Int](numBytes / 4)
    val random = new SplittableRandom(seed)
    for (_ <- 0 until numBytes / 10) SbbfKernels.scalar().insert(words, random.nextLong())
    words
  }

  // 8 MiB: past ScalarSbbfKernel.GROUP_MIN_WORDS, the grouped path.
  for (name <- kernelNames; numBytes <- Seq(32, 96, 4096, 1 << 16, 8 << 20))
    test(s"$name checkAll/checkAny on $numBytes bytes == check, any range") {
      val k = kernel(name)
      val words = filled(numBytes, numBytes.toLong)
      val random = new SplittableRandom(numBytes.toLong + 1)
      val hashes = Array.fill(200)(random.nextLong())
      // Make some probes present so checkAny also returns true.
      for (i <- 0 until 200 by 7) k.insert(words, hashes(i))
      val expected = hashes.map(h => SbbfKernels.scalar().check(words, h))
      for (from <- Seq(0, 1, 5, 16, 17); len <- Seq(0, 1, 15, 16, 17, 31, 32, 33, 100)) {
        val out = new Array[Boolean](len)
        k.checkAll(words, hashes, from, from + len, out)
        assertEquals(out.toSeq, expected.slice(from, from + len).toSeq, s"from $from len $len")
        assertEquals(k.checkAny(words, hashes, from, from + len), expected.slice(from, from + len).contains(true))
      }
      val absent = hashes.indices.filterNot(expected).map(hashes).toArray
      assert(!k.checkAny(words, absent, 0, absent.length))
    }

  for (name <- kernelNames) test(s"$name insertAll with duplicate blocks in one group == single inserts") {
    val k = kernel(name)
    val random = new SplittableRandom(5)
    // 3 blocks: every group of 16 hits each block several times.
    val hashes = Array.fill(1000)(random.nextLong())
    for (from <- Seq(0, 3); to <- Seq(1000, 997)) {
      val batch = new Array[Int](24)
      val single = new Array[Int](24)
      k.insertAll(batch, hashes, from, to)
      for (i <- from until to) SbbfKernels.scalar().insert(single, hashes(i))
      assertEquals(batch.toSeq, single.toSeq)
    }
  }

  for (name <- kernelNames) test(s"$name insertAll of a HashBuffer's sorted distinct hashes (the writer's path) == single inserts") {
    val k = kernel(name)
    val random = new SplittableRandom(6)
    val values = Array.fill(3000)(random.nextLong(500)) // many repeats
    val buffer = new HashBuffer(16)
    values.foreach(v => buffer.add(ParquetHash.int64(v)))
    val (sorted, count) = buffer.distinct()
    assertEquals(count, values.distinct.length)
    val batch = SplitBlockBloomFilter(32 * 101, k)
    k.insertAll(batch.words, sorted, 0, count)
    val single = SplitBlockBloomFilter(32 * 101, SbbfKernels.scalar())
    values.foreach(v => single.insertHash(ParquetHash.int64(v)))
    assertEquals(batch, single)
  }
}
