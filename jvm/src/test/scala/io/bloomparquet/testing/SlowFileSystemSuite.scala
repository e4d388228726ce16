package io.bloomparquet.testing

/** The simulated store's bandwidths: each stream its own, and all of them at once one shared pipe. */
class SlowFileSystemSuite extends munit.FunSuite {

  private def timed(body: => Unit): Double = {
    val started = System.nanoTime()
    body
    (System.nanoTime() - started) / 1e9
  }

  private def inParallel(threads: Int)(body: => Unit): Unit = {
    val ts = Seq.fill(threads)(new Thread(() => body))
    ts.foreach(_.start())
    ts.foreach(_.join())
  }

  test("streams at once share the driver's bandwidth; alone each gets its own") {
    try {
      SlowFileSystem.setMegabytesPerSecond(100)
      SlowFileSystem.setDriverMegabytesPerSecond(0)
      val unshared = timed(inParallel(4)(SlowFileSystem.transfer(1000000))) // 10 ms each, at once
      assert(unshared < 0.035, unshared)
      SlowFileSystem.setDriverMegabytesPerSecond(100)
      val shared = timed(inParallel(4)(SlowFileSystem.transfer(1000000))) // 4 MB through 100 MB/s
      assert(shared >= 0.039, shared)
      val alone = timed(SlowFileSystem.transfer(1000000))
      assert(alone < 0.025, alone)
    } finally {
      SlowFileSystem.setMegabytesPerSecond(0)
      SlowFileSystem.setDriverMegabytesPerSecond(0)
    }
  }
}
