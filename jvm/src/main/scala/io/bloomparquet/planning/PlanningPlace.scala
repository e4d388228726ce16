package io.bloomparquet.planning

/**
 * The executors a planning job could spread a scan's reads over: how many (the driver not
 * counted), the task slots of each, and the planning threads each JVM runs
 * (`spark.bloomparquet.planning.threads`).
 */
final case class PlanningExecutors(count: Int, coresEach: Int, threadsEach: Int)

object PlanningExecutors {
  /** No executor of their own (a `local[n]` master: its tasks are threads of the driver's JVM). */
  val None: PlanningExecutors = PlanningExecutors(0, 0, 0)
}

/**
 * The reads a scan's planning has to issue: the files whose footer the driver's cache does not
 * hold (a cached file costs no request), each about `roundsPerFile` rounds of requests (its
 * tail, then the probed blocks of its filters) and `bytesPerFile` bytes (its first tail read:
 * what filters it needs is known only from its footer).
 */
final case class PlanningReads(files: Int, roundsPerFile: Int, bytesPerFile: Long)

object PlanningReads {
  /** A file not cached: its tail, then one (vectored) read of its probed blocks, the most a point lookup should cost on an object store. */
  val RoundsPerFile: Int = 2
}

/**
 * Where a scan's footers and filters are read: on the driver, or by a Spark job on the executors
 * ([[io.bloomparquet.spark.DistributedPlanning]]). Decided by the time each would take, from the
 * reads to issue and the file system's cost ([[ReadCost]]), not by a file count: a job costs
 * `jobSeconds` to launch and collect, then spreads the requests and bytes over the executors'
 * threads and network; the driver reads `filesAtOnce` files at a time through its own network.
 * Pure.
 */
object PlanningPlace {

  /**
   * The time `reads` take read `filesAtOnce` at a time, each at its share of the bandwidth
   * (`costAt(filesAtOnce)`: a stream's, or its part of the JVM's network): waves of files, each
   * wave its rounds of requests and its bytes.
   */
  def seconds(reads: PlanningReads, filesAtOnce: Int, costAt: Int => ReadCost): Double =
    if (reads.files <= 0) 0.0
    else {
      val atOnce = math.max(1, math.min(filesAtOnce, reads.files))
      val cost = costAt(atOnce)
      val waves = (reads.files + atOnce - 1) / atOnce
      waves * (reads.roundsPerFile * cost.latencySeconds + reads.bytesPerFile / cost.bytesPerSecond)
    }

  /** On the driver: `atOnce` files at once (`bloom.planningParallelism`, within the planning threads). */
  def driverSeconds(reads: PlanningReads, atOnce: Int, costAt: Int => ReadCost): Double =
    seconds(reads, atOnce, costAt)

  /**
   * In a job: the files split evenly over the executors; each runs a task per core, each task
   * `parallelism` files at once, all within the JVM's planning threads (and the tasks' own
   * threads, which read too); every executor has its own network.
   */
  def jobSeconds(reads: PlanningReads, parallelism: Int, executors: PlanningExecutors, jobSeconds: Double,
      costAt: Int => ReadCost): Double =
    if (executors.count <= 0) Double.PositiveInfinity
    else {
      val perExecutor = reads.copy(files = (reads.files + executors.count - 1) / executors.count)
      val atOnce = math.min(math.max(1, executors.coresEach) * parallelism, executors.threadsEach + executors.coresEach)
      jobSeconds + seconds(perExecutor, atOnce, costAt)
    }

  /**
   * Whether the job takes less time than the driver would, reading `driverAtOnce` files at once
   * (its `parallelism`, within its planning threads).
   */
  def onExecutors(reads: PlanningReads, driverAtOnce: Int, parallelism: Int, executors: PlanningExecutors,
      jobSeconds: Double, costAt: Int => ReadCost): Boolean =
    reads.files > 0 &&
      this.jobSeconds(reads, parallelism, executors, jobSeconds, costAt) < driverSeconds(reads, driverAtOnce, costAt)
}
