package io.bloomparquet

import io.bloomparquet.sql.{SqlFunctions, SqlStrategy}
import org.apache.spark.sql.SparkSessionExtensions

/**
 * bloomparquet's Spark session extension:
 * `spark.sql.extensions=io.bloomparquet.BloomParquetExtensions` (`bloomparquet.session()`
 * and `configure()` set it). It registers bloomparquet's SQL table functions, which
 * also serve Spark Connect clients: everything Python does through py4j on a
 * classic session has a SQL form here.
 */
class BloomParquetExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit = {
    SqlFunctions.all.foreach(extensions.injectTableFunction)
    extensions.injectPlannerStrategy(_ => SqlStrategy)
  }
}
