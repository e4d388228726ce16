package io.bloomparquet.pruning

/**
 * How the splits that survive pruning are grouped into tasks. Spark packs splits
 * up to a size cap, which leaves a short last wave when what survives is not a
 * multiple of (cores x cap): 444 MB on 2 cores ran as 128+128 | 128+60, where
 * even tasks run as 111+111 | 111+111. Pure.
 */
object TaskBalancer {

  /** Spark's task count rounded up to whole waves of `slots` tasks, at most `cap`. */
  def tasks(sparkTasks: Int, slots: Int, cap: Option[Int]): Int = {
    val waves = math.max(1, (sparkTasks + slots - 1) / math.max(slots, 1))
    val rounded = if (sparkTasks <= 0) 0 else waves * math.max(slots, 1)
    cap.fold(rounded)(c => math.min(rounded, math.max(c, sparkTasks)))
  }

  /**
   * Indices of `weights` in at most `groups` groups of near-equal total weight:
   * heaviest first, each to the lightest group so far (LPT; the heaviest group
   * exceeds the mean by at most one weight). Empty groups are dropped; indices
   * in a group ascend.
   */
  def balance(weights: IndexedSeq[Long], groups: Int): Seq[IndexedSeq[Int]] = {
    if (weights.isEmpty || groups <= 0) return Seq.empty
    val loads = new java.util.PriorityQueue[(Long, Int)](Ordering.Tuple2[Long, Int])
    (0 until math.min(groups, weights.size)).foreach(g => loads.add((0L, g)))
    val members = Array.fill(math.min(groups, weights.size))(IndexedSeq.newBuilder[Int])
    weights.indices.sortBy(i => (-weights(i), i)).foreach { i =>
      val (load, g) = loads.poll()
      members(g) += i
      loads.add((load + weights(i), g))
    }
    members.toSeq.map(_.result().sorted).filter(_.nonEmpty)
  }
}
