package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.OptionRegistry.{CacheMaxMb, PlanningThreads}
import io.bloomparquet.planning.{FileBloomIndexCache, PlanningPool}
import org.apache.spark.sql.SparkSession

/**
 * The JVM-wide settings (the footer and filter cache's size, the planning
 * pool's threads), read from Spark confs once per JVM like Spark's static
 * confs, so concurrent sessions do not fight over them: on the driver from the
 * session that creates the first bloomparquet table or scan, on an executor
 * from its SparkEnv when its first task prunes.
 */
object ProcessConfs {
  @volatile private var applied = false

  def applyOnDriver(spark: SparkSession): Unit = applyOnce(spark.conf.getOption)

  def applyOnExecutor(): Unit = applyOnce(SparkCompat.envConf)

  private def applyOnce(conf: String => Option[String]): Unit = if (!applied) synchronized {
    if (!applied) {
      FileBloomIndexCache.setBudget(CacheMaxMb.from(conf) << 20)
      PlanningPool.setMaxThreads(PlanningThreads.from(conf).toInt)
      applied = true
    }
  }
}
