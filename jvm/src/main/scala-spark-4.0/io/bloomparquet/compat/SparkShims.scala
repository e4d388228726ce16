package io.bloomparquet.compat

import org.apache.spark.sql.{Dataset, SparkSession}
import org.apache.spark.sql.catalyst.expressions.{DynamicPruningSubquery, Expression, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.QueryExecution
import org.apache.spark.sql.execution.datasources.FilePartition
import org.apache.spark.sql.types.{DataType, StringType, VariantType}

/**
 * Spark calls whose shape differs between the minors of different shim folders (Spark 4.0 here).
 * One copy per folder, same signatures; only the rest of `compat` calls them.
 */
private[compat] object SparkShims {

  /** Spark's dynamic pruning filter (4.0: broadcast key indices, no broadcast value projection). */
  def dynamicPruningSubquery(key: Expression, keys: LogicalPlan, keyColumns: Seq[Expression],
      onlyInBroadcast: Boolean): Expression =
    DynamicPruningSubquery(key, keys, keyColumns, Seq(0), onlyInBroadcast, NamedExpression.newExprId, None)

  /** Spark's split size for files totalling `totalBytes` (4.0+: from a byte count). */
  def maxSplitBytes(spark: SparkSession, totalBytes: Long): Long = FilePartition.maxSplitBytes(spark, totalBytes)

  /** Is `t` Spark's variant type (4.0+)? */
  def isVariant(t: DataType): Boolean = t.isInstanceOf[VariantType]

  /** The executed plan of a classic Dataset (4.0+ splits classic from Connect). */
  def queryExecution(df: Dataset[_]): QueryExecution = df match {
    case d: org.apache.spark.sql.classic.Dataset[_] => d.queryExecution
    case other => throw new IllegalArgumentException(s"bloomparquet: not a classic Dataset: ${other.getClass.getName}")
  }

  /** Does Spark compare strings of `t` byte by byte (4.0+: collations; UTF8_BINARY only)? */
  def isBinaryCollation(t: StringType): Boolean = t.collationId == StringType.collationId
}
