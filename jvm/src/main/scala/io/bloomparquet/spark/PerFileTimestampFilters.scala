package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.TimestampType

/**
 * Timestamp filters Spark's V2 Parquet scan builder drops and its reader can use. The builder
 * judges which filters Parquet can evaluate against the read schema as Spark would write it
 * (`spark.sql.parquet.outputTimestampType`, INT96 by default, which no Parquet filter compares),
 * so it keeps no filter on a timestamp column; its reader factory converts what it is given against
 * each file's own schema, as Spark's V1 reader does with every data filter, and so judges a
 * timestamp filter on files storing INT64 timestamps and ignores it on INT96 ones.
 */
object PerFileTimestampFilters {

  /** The source filters among `shown` (those the reader may get) on timestamps that `pushed` lacks. */
  def missing(spark: SparkSession, shown: Seq[Expression], pushed: Seq[Filter]): Seq[Filter] =
    if (!SparkCompat.sqlConf(spark).parquetFilterPushDown) Nil
    else shown.filter(_.references.exists(a => SparkCompat.anyType(a.dataType)(_ == TimestampType)))
      .flatMap(SparkCompat.sourceFilter).filterNot(pushed.contains)
}
