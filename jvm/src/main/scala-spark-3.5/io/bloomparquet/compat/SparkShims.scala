package io.bloomparquet.compat

import org.apache.spark.sql.{Dataset, SparkSession}
import org.apache.spark.sql.catalyst.expressions.{DynamicPruningSubquery, Expression, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.QueryExecution
import org.apache.spark.sql.types.{DataType, StringType}

/**
 * Spark calls whose shape differs between the minors of different shim folders (Spark 3.5 here).
 * One copy per folder, same signatures; only the rest of `compat` calls them.
 */
private[compat] object SparkShims {

  /** Spark's dynamic pruning filter (3.5: one broadcast key index). */
  def dynamicPruningSubquery(key: Expression, keys: LogicalPlan, keyColumns: Seq[Expression],
      onlyInBroadcast: Boolean): Expression =
    DynamicPruningSubquery(key, keys, keyColumns, 0, onlyInBroadcast, NamedExpression.newExprId, None)

  /**
   * Spark's split size for files totalling `totalBytes` (open costs included). 3.5 takes the listed
   * partitions instead of a byte count; this is its formula over the count.
   */
  def maxSplitBytes(spark: SparkSession, totalBytes: Long): Long = {
    val conf = SparkCompat.sqlConf(spark)
    val bytesPerCore = totalBytes / SparkCompat.minFilePartitions(spark)
    math.min(conf.filesMaxPartitionBytes, math.max(conf.filesOpenCostInBytes, bytesPerCore))
  }

  /** 3.5 has no variant type. */
  def isVariant(t: DataType): Boolean = false

  /** The executed plan of a Dataset (3.5 has one Dataset class). */
  def queryExecution(df: Dataset[_]): QueryExecution = df.queryExecution

  /** 3.5 has no collations: every string compares byte by byte. */
  def isBinaryCollation(t: StringType): Boolean = true
}
