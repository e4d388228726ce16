package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans.{V2Relation, v1FileRelation}
import io.bloomparquet.spark.{BloomParquetFileFormat, BloomParquetTable, ListedBloomParquetTable}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.AttributeReference
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * A `spark.read.format("bloomparquet")` relation that nothing could prune ([[PruningChance]]: no
 * bloom predicate or predicate subquery right above it, no join whose keys could prune it and pay) becomes Spark's V1
 * file relation over the same files and columns, read through [[BloomParquetFileFormat]], as
 * [[V2ScanRoute]] leaves such a SQL-route relation on V1. The V2 scan could only cost there:
 * Spark's rules that know V1 relations alone stop applying (TPC-DS q9's 15 scalar subqueries over
 * `store_sales` merge into 5 scans on V1, none on V2: 1.4-1.6x Spark's `parquet`). Rows are the
 * same: the V1 format withholds what `bloom.sparkPushdown` withholds. A pre-CBO rule: it runs once,
 * after the operator-optimization batch moved filters down, before the V2 scans are built.
 */
final case class UnprunableOnV1(spark: SparkSession) extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    // Every relation over the same files keeps the same route, so copies of one subplan (a CTE
    // referenced twice) still reuse each other's exchanges.
    def files(t: BloomParquetTable): Set[String] = t.fileIndex.rootPaths.map(_.toString).toSet
    lazy val joins = PruningChance.JoinKeys.of(plan)
    val prunable = plan.collect {
      case Filter(condition, FormatRelation(t, _)) if PruningChance.inFilter(condition, KeySetSize.payingOn(t)) => files(t)
    }.toSet ++ plan.collect {
      case FormatRelation(t, output) if joins.mayPrune(output, KeySetSize.payingOn(t)) => files(t)
    }
    plan.transformUp {
      case r @ FormatRelation(table, output) if !prunable(files(table)) => onV1(table, output).getOrElse(r)
    }
  }

  private def onV1(table: BloomParquetTable, output: Seq[AttributeReference]): Option[LogicalPlan] = {
    val index = table.fileIndex
    v1FileRelation(spark, index, table.dataSchema, index.partitionSchema, new BloomParquetFileFormat, table.openedWith, output)
  }

  /** A V2 relation of the `bloomparquet` format route (not one [[V2ScanRoute]] made of a V1 relation). */
  private object FormatRelation {
    def unapply(plan: LogicalPlan): Option[(BloomParquetTable, Seq[AttributeReference])] = plan match {
      case V2Relation(t: BloomParquetTable, output) if !t.isInstanceOf[ListedBloomParquetTable] => Some(t -> output)
      case _ => None
    }
  }
}
