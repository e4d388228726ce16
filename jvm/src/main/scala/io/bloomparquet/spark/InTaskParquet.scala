package io.bloomparquet.spark

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.ParquetInputFormat

/**
 * Judge each filter once: in scans we prune, parquet-java inside Spark's tasks
 * must not read the bloom filters again. It would re-read the filters of every
 * row group we kept, judge malformed filters we ignore by its own rules (and
 * drop row groups holding matches), and allocate whatever a footer claims.
 * Its statistics and dictionary filters stay on.
 */
object InTaskParquet {
  val settings: Map[String, String] = Map(ParquetInputFormat.BLOOM_FILTERING_ENABLED -> "false")

  /** For the V1 route, which hands us the Hadoop configuration its reader will use. */
  def configure(conf: Configuration): Unit = settings.foreach { case (k, v) => conf.set(k, v) }
}
