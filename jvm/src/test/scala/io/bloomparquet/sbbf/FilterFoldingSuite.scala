package io.bloomparquet.sbbf

import java.util.SplittableRandom

import io.bloomparquet.kernel.SbbfKernels

/** Halving a filter gives the filter of half the blocks its values would have built, bit for bit. */
class FilterFoldingSuite extends munit.FunSuite {
  private def built(blocks: Int, hashes: Array[Long]): Array[Int] = {
    val f = SplitBlockBloomFilter(blocks * 32, SbbfKernels.scalar())
    hashes.foreach(f.insertHash)
    f.words
  }

  for (blocks <- Seq(2, 4, 64, 1024, 1 << 15)) test(s"$blocks blocks folded == ${blocks / 2} blocks built from the same values") {
    val random = new SplittableRandom(blocks.toLong)
    val hashes = Array.fill(blocks * 3)(random.nextLong())
    val folded = FilterFolding.fold(built(blocks, hashes))
    assert(java.util.Arrays.equals(folded, built(blocks / 2, hashes)))
    val filter = SplitBlockBloomFilter(folded.length * 4)
    System.arraycopy(folded, 0, filter.words, 0, folded.length)
    assert(hashes.forall(filter.mightContain), "no value lost")
  }

  test("only a power-of-two count of two or more blocks folds") {
    assert(!FilterFolding.foldable(new Array[Int](8)))
    assert(!FilterFolding.foldable(new Array[Int](24)))
    assert(FilterFolding.foldable(new Array[Int](16)))
    intercept[IllegalArgumentException](FilterFolding.fold(new Array[Int](24)))
  }

  test("right-sized: an oversized filter shrinks to what its values need, never past the bound") {
    val random = new SplittableRandom(3)
    val hashes = Array.fill(1000)(random.nextLong())
    val oversized = built(1 << 14, hashes) // 512 KiB for 1,000 values
    val sized = FilterFolding.rightSized(oversized, 0.01)
    assert(sized.length < oversized.length / 64, s"${sized.length / 8} blocks")
    assert(FillEstimates.fpp(sized) <= 0.01, FillEstimates.fpp(sized))
    assert(FillEstimates.fpp(FilterFolding.fold(sized)) > 0.01, "one more halving would pass the bound")
    assert(java.util.Arrays.equals(sized, built(sized.length / 8, hashes)))
  }

  test("right-sized: a filter already past the bound is not made worse") {
    val random = new SplittableRandom(4)
    val full = built(8, Array.fill(400)(random.nextLong()))
    assert(FillEstimates.fpp(full) > 0.01)
    assert(java.util.Arrays.equals(FilterFolding.rightSized(full, 0.01), full))
    assert(FilterFolding.rightSized(new Array[Int](8), 0.01).length == 8, "one block stays")
    assert(FilterFolding.rightSized(new Array[Int](8 * 64), 0.01).length == 8, "an empty filter folds to one block")
  }
}
