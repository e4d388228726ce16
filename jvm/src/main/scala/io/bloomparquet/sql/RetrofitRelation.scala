package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.retrofit.{RetrofitJob, RetrofitResult}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, GenericInternalRow, UnsafeProjection}
import org.apache.spark.sql.catalyst.plans.logical.LeafNode
import org.apache.spark.sql.execution.LeafExecNode
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * `SELECT * FROM bloomparquet_retrofit(path, columns[, fpp[, overwrite]])`: retrofit
 * as SQL, and so over Spark Connect. A query, not a command: a command would run
 * when the SQL is analysed, and Connect analyses a query's SQL again to run it.
 */
final case class RetrofitRelation(path: String, columns: Seq[String], fpp: Option[Double], overwrite: Boolean,
    // A field, like LocalRelation's: a copy of the plan must keep the attributes' ids.
    output: Seq[Attribute]) extends LeafNode

object RetrofitRelation {
  val schema: StructType = StructType(Seq(
      StructField("path", StringType, nullable = false), StructField("status", StringType, nullable = false),
      StructField("columns", StringType, nullable = false), StructField("chunks", IntegerType, nullable = false),
      StructField("filter_bytes", LongType, nullable = false), StructField("file_bytes", LongType, nullable = false),
      StructField("seconds", DoubleType, nullable = false)))

  def apply(args: FunctionArgs): RetrofitRelation = {
    args.noMore(4)
    RetrofitRelation(args.string(0, "path"), args.string(1, "columns").split(",").map(_.trim).filter(_.nonEmpty).toSeq,
      args.double(2, "fpp"), args.boolean(3, "overwrite").getOrElse(false), SparkCompat.toAttributes(schema))
  }

  def row(r: RetrofitResult): InternalRow = new GenericInternalRow(Array[Any](UTF8String.fromString(r.path),
      UTF8String.fromString(r.status), UTF8String.fromString(r.columns.mkString(",")), r.chunks, r.filterBytes,
      r.fileBytes, r.seconds))
}

/** Runs the retrofit job when the query executes; its rows are the per-file results. */
final case class RetrofitExec(relation: RetrofitRelation) extends LeafExecNode {
  override def output: Seq[Attribute] = relation.output

  override protected def doExecute(): RDD[InternalRow] = {
    val r = relation
    val results = RetrofitJob.run(SparkSession.active, r.path, r.columns, r.fpp.getOrElse(RetrofitJob.DefaultFpp), r.overwrite)
    val toUnsafe = UnsafeProjection.create(RetrofitRelation.schema)
    sparkContext.parallelize(results.map(res => toUnsafe(RetrofitRelation.row(res)).copy(): InternalRow), 1)
  }
}
