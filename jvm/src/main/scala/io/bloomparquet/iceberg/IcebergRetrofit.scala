package io.bloomparquet.iceberg

import io.bloomparquet.retrofit.{FormatRetrofit, TableRetrofitter}
import org.apache.spark.sql.SparkSession

/**
 * Retrofit of an Apache Iceberg table (named as Spark SQL names it, `catalog.db.table`): filters added
 * to the data files of its current snapshot without re-encoding a page, each into a new file beside
 * the old one, committed through Iceberg's `RewriteFiles` (a `replace` snapshot, validated from the
 * snapshot read), columns matched by field id. A file some delete applies to is left as it is: its
 * deletes name it by path, and only a rewrite that applies them (`rewrite_data_files`) may replace it.
 */
object IcebergRetrofit extends FormatRetrofit {
  override val format: String = "iceberg"
  override protected val described: String = "an Iceberg table"

  override protected def retrofitter(spark: SparkSession): Either[String, TableRetrofitter] =
    IcebergIntegration.load("run it where Iceberg's Spark runtime is loaded, on a Spark minor it has a release for")
      .map(_.retrofitter(spark))

  // An Iceberg table is named through its catalog; the directory digest is not built for it.
  override protected def digestRoot(table: String): Option[String] = None
}
