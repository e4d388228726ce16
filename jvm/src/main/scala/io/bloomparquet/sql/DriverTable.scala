package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, UnsafeProjection}
import org.apache.spark.sql.catalyst.plans.logical.{LeafNode, Statistics}
import org.apache.spark.sql.execution.LeafExecNode
import org.apache.spark.sql.types.StructType

/**
 * A table function whose rows the driver computes when the query runs (not at
 * analysis, which Connect repeats): reading footers and filters of a path.
 */
trait DriverTable {
  def schema: StructType
  def rows(spark: SparkSession): Seq[InternalRow]
}

/** The logical leaf of a [[DriverTable]]; `output` a field so a copy keeps the attributes' ids. */
final case class DriverTableRelation(table: DriverTable, output: Seq[Attribute]) extends LeafNode {
  // Small: one row per chunk or row group of a path.
  override def computeStats(): Statistics = Statistics(sizeInBytes = BigInt(1L << 20))
}

object DriverTableRelation {
  def apply(table: DriverTable): DriverTableRelation = DriverTableRelation(table, SparkCompat.toAttributes(table.schema))
}

final case class DriverTableExec(relation: DriverTableRelation) extends LeafExecNode {
  override def output: Seq[Attribute] = relation.output

  override protected def doExecute(): RDD[InternalRow] = {
    val toUnsafe = UnsafeProjection.create(relation.table.schema)
    val rows = relation.table.rows(SparkSession.active).map(r => toUnsafe(r).copy(): InternalRow)
    sparkContext.parallelize(rows, 1)
  }
}
