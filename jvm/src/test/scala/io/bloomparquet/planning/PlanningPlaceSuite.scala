package io.bloomparquet.planning

import io.bloomparquet.options.ReadCostSettings

/**
 * Where planning reads ([[PlanningPlace]]): by the time each place would take, from the reads to
 * issue and the file system's cost, not a file count.
 */
class PlanningPlaceSuite extends munit.FunSuite {
  private val s3 = (n: Int) => ReadCost.forPath("s3a://b/t/f.parquet", ReadCostSettings(filesAtOnce = n))
  private val local = (n: Int) => ReadCost.forPath("file:/t/f.parquet", ReadCostSettings(filesAtOnce = n))
  private val tail = 64L << 10
  private def reads(files: Int) = PlanningReads(files, PlanningReads.RoundsPerFile, tail)
  private val cluster = PlanningExecutors(count = 10, coresEach = 4, threadsEach = 64)
  private val job = 1.0

  test("the time of waves of files: rounds of requests plus bytes at each file's share of the bandwidth") {
    // 8,000 files on S3, 64 at once: 125 waves of 2 x 20 ms and 64 KiB at 1 GB/s / 64.
    val wave = 2 * 0.020 + tail / (1e9 / 64)
    assertEqualsDouble(PlanningPlace.driverSeconds(reads(8000), 64, s3), 125 * wave, 1e-9)
    // Fewer files than the parallelism: one wave, each file with a larger share.
    assertEqualsDouble(PlanningPlace.driverSeconds(reads(10), 64, s3), 2 * 0.020 + tail / 100e6, 1e-9)
    assertEquals(PlanningPlace.driverSeconds(reads(0), 64, s3), 0.0)
  }

  test("a job: the launch, then each executor's share of the files, its tasks' threads within the JVM's") {
    // 800 files an executor, min(4 x 64, 64 + 4) = 68 at once: 12 waves.
    val wave = 2 * 0.020 + tail / (1e9 / 68)
    assertEqualsDouble(PlanningPlace.jobSeconds(reads(8000), 64, cluster, job, s3), job + 12 * wave, 1e-9)
    assertEquals(PlanningPlace.jobSeconds(reads(8000), 64, PlanningExecutors.None, job, s3), Double.PositiveInfinity)
  }

  test("thousands of cold files on an object store plan in a job; a few, or a warm repeat, on the driver") {
    assert(PlanningPlace.onExecutors(reads(8000), 64, 64, cluster, job, s3))
    assert(PlanningPlace.onExecutors(reads(100000), 64, 64, cluster, job, s3))
    // 100 files: two waves on the driver (0.1 s), less than launching a job.
    assert(!PlanningPlace.onExecutors(reads(100), 64, 64, cluster, job, s3))
    // Warm: the driver's cache holds every footer, nothing to read.
    assert(!PlanningPlace.onExecutors(reads(0), 64, 64, cluster, job, s3))
    // No executor of their own (local[n]).
    assert(!PlanningPlace.onExecutors(reads(100000), 64, 64, PlanningExecutors.None, job, s3))
  }

  test("the turn is where the driver's time passes the job's: a file count that moves with latency and launch cost") {
    def turn(costAt: Int => ReadCost, jobSeconds: Double): Int =
      Iterator.iterate(1)(_ + 1).take(10000000).find(n => PlanningPlace.onExecutors(reads(n), 64, 64, cluster, jobSeconds, costAt))
        .getOrElse(-1)
    val onS3 = turn(s3, job)
    // ~1 s of driver time at 64 files a wave of ~44 ms: about 1,500 files.
    assert(onS3 > 1000 && onS3 < 2000, onS3)
    // A launch twice as dear needs about twice the files.
    val dearJob = turn(s3, 2 * job)
    assert(dearJob > 1.8 * onS3 && dearJob < 2.2 * onS3, (onS3, dearJob))
    // Local files (20 us a read, 2 GB/s, no driver bound): only past millions of files.
    assert(!PlanningPlace.onExecutors(reads(100000), 16, 16, cluster, job, local))
    // One executor with one core: the driver's 64 files at once, plus the launch: never.
    // A driver of 16 planning threads reads 17 files at once, not 64: then the same executor pays.
    assert(PlanningPlace.onExecutors(reads(100000), 17, 64, PlanningExecutors(1, 1, 64), job, s3))
    assert(!PlanningPlace.onExecutors(reads(100000), 64, 64, PlanningExecutors(1, 1, 64), job, s3))
  }
}
