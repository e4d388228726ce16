package io.bloomparquet.delta

import io.bloomparquet.retrofit.{FormatRetrofit, TableRetrofitter}
import org.apache.spark.sql.SparkSession

/**
 * Retrofit of a Delta Lake table: filters added to the files of its latest version without
 * re-encoding a page, each into a new file beside the old one (a Delta table's files never change),
 * committed through Delta's own transaction as a `dataChange=false` rewrite: statistics, deletion
 * vectors, partition values and tags carried over, no log entry written by hand.
 */
object DeltaRetrofit extends FormatRetrofit {
  override val format: String = "delta"
  override protected val described: String = "a Delta table"

  override protected def retrofitter(spark: SparkSession): Either[String, TableRetrofitter] =
    DeltaIntegration.load("run it where Delta Lake is loaded, on a Spark minor it has a release for").map(_.retrofitter(spark))

  // A Delta table is named by its directory, where a digest built over it lives.
  override protected def digestRoot(table: String): Option[String] = Some(table)
}
