package io.bloomparquet.planning

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.OptionRegistry.{CacheMaxMb, PlanningThreads}

/**
 * The JVM-wide settings (the footer and filter cache's size, the planning
 * pool's threads), read from Spark confs once per JVM like Spark's static
 * confs, so concurrent sessions do not fight over them. They are read where
 * they are used, when the cache or the pool is first touched: from the
 * session of that thread (a driver), else from the JVM's SparkEnv (an
 * executor), else their defaults.
 */
private[planning] object ProcessConfs {
  private lazy val conf: String => Option[String] = SparkCompat.processConf()

  lazy val cacheBytes: Long = CacheMaxMb.from(conf) << 20

  lazy val planningThreads: Int = PlanningThreads.from(conf).toInt
}
