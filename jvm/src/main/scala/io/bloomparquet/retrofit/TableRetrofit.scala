package io.bloomparquet.retrofit

import org.apache.spark.sql.SparkSession

/**
 * Retrofit of a table format's files through its own commit (`delta.DeltaRetrofit`, `iceberg.IcebergRetrofit`),
 * as the `bloomparquet_retrofit` SQL function takes it from the session extension: the function
 * lives in `sql`, which the format's code may not be imported by.
 */
trait TableRetrofit {
  /** The format's name, as the SQL function's `format` argument gives it. */
  def format: String

  /** Retrofits the table at `path`: the version committed, and a result per file. */
  def run(spark: SparkSession, path: String, columns: Seq[String], fpp: Double, overwrite: Boolean): (Long, Seq[RetrofitResult])
}
