package io.bloomparquet.pruning

import scala.util.Random

class TaskBalancerSuite extends munit.FunSuite {

  test("every split lands in exactly one task, and the heaviest task is at most the mean plus one split") {
    val random = new Random(7)
    for (_ <- 0 until 500) {
      val weights = IndexedSeq.fill(1 + random.nextInt(60))(1L + random.nextInt(50) * 1000000L)
      val groups = 1 + random.nextInt(12)
      val out = TaskBalancer.balance(weights, groups)
      assertEquals(out.flatten.sorted, weights.indices)
      assert(out.size <= groups && out.forall(g => g == g.sorted))
      val loads = out.map(_.map(weights).sum)
      assert(loads.max <= weights.sum / out.size + weights.max, (weights, groups, loads))
    }
  }

  test("the motivating case: 444 MB of survivors on 2 cores") {
    val mb = 1L << 20
    val weights = IndexedSeq(40, 40, 40, 32, 32, 24, 40, 40, 32, 24, 40, 16, 24, 20).map(_ * mb) // 444 MB
    val out = TaskBalancer.balance(weights, TaskBalancer.tasks(sparkTasks = 5, slots = 2, cap = None))
    assertEquals(out.size, 6)
    val loads = out.map(_.map(weights).sum)
    assert(loads.max - loads.min <= 40 * mb, loads)
  }

  test("task counts: whole waves, never fewer than Spark's, capped") {
    assertEquals(TaskBalancer.tasks(5, 2, None), 6)
    assertEquals(TaskBalancer.tasks(4, 2, None), 4)
    assertEquals(TaskBalancer.tasks(1, 8, None), 8)
    assertEquals(TaskBalancer.tasks(0, 2, None), 0)
    assertEquals(TaskBalancer.tasks(5, 4, Some(6)), 6)
    assertEquals(TaskBalancer.tasks(9, 4, Some(6)), 9)
    assertEquals(TaskBalancer.balance(IndexedSeq(5L), 8), Seq(IndexedSeq(0)))
    assertEquals(TaskBalancer.balance(IndexedSeq.empty, 3), Seq.empty)
  }
}
