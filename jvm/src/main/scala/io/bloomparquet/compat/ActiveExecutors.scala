// In Spark's package: the application's status store and its executor list are private[spark].
package org.apache.spark.bloomparquet

import org.apache.spark.SparkContext

/** An executor planning jobs can send work to: its id, host and task slots. */
final case class ActiveExecutor(id: String, host: String, cores: Int) {
  /** Spark's preferred location naming this executor itself (its cache), not only its host. */
  def location: String = s"executor_${host}_$id"
}

/** The executors of an application now, from Spark's own status store (the driver not counted). */
object ActiveExecutors {
  def of(sc: SparkContext): Seq[ActiveExecutor] =
    sc.statusStore.executorList(true)
      .filter(_.id != SparkContext.DRIVER_IDENTIFIER)
      .map { e =>
        val colon = e.hostPort.lastIndexOf(':')
        ActiveExecutor(e.id, if (colon > 0) e.hostPort.substring(0, colon) else e.hostPort, math.max(1, e.totalCores))
      }
      .sortBy(_.id)
}
