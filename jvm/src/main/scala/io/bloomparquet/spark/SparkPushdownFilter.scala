package io.bloomparquet.spark

import io.bloomparquet.options.SparkPushdown
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression, GetStructField}
import org.apache.spark.sql.types.{DoubleType, FloatType}

/** Which data filters [[SparkPushdown]] keeps from Spark's own Parquet pushdown. */
object SparkPushdownFilter {
  def withhold(mode: SparkPushdown, filter: Expression): Boolean = mode match {
    case SparkPushdown.All => false
    case SparkPushdown.Off => true
    case SparkPushdown.Safe => filter.exists {
      case c @ (_: Attribute | _: GetStructField) => c.dataType == FloatType || c.dataType == DoubleType
      case _ => false
    }
  }
}
