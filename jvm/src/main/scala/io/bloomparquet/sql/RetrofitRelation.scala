package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.retrofit.{RetrofitJob, RetrofitResult, TableRetrofit}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, GenericInternalRow, UnsafeProjection}
import org.apache.spark.sql.catalyst.plans.logical.LeafNode
import org.apache.spark.sql.execution.LeafExecNode
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * `SELECT * FROM bloomparquet_retrofit(path, columns[, fpp[, overwrite[, format]]])`: retrofit
 * as SQL, and so over Spark Connect. A query, not a command: a command would run
 * when the SQL is analysed, and Connect analyses a query's SQL again to run it.
 * `format` is `parquet` (the files under `path`, in place) or a table format the session
 * extension gave (`tables`: Delta Lake's, Iceberg's), whose rows also carry each new file and the version committed.
 */
final case class RetrofitRelation(path: String, columns: Seq[String], fpp: Option[Double], overwrite: Boolean,
    table: Option[TableRetrofit],
    // A field, like LocalRelation's: a copy of the plan must keep the attributes' ids.
    output: Seq[Attribute]) extends LeafNode

object RetrofitRelation {
  val schema: StructType = StructType(Seq(
      StructField("path", StringType, nullable = false), StructField("status", StringType, nullable = false),
      StructField("columns", StringType, nullable = false), StructField("chunks", IntegerType, nullable = false),
      StructField("filter_bytes", LongType, nullable = false), StructField("file_bytes", LongType, nullable = false),
      StructField("seconds", DoubleType, nullable = false)))

  /** A table format's rows: the new file of each file retrofitted, and the version committed. */
  val tableSchema: StructType = schema
    .add(StructField("target", StringType, nullable = true)).add(StructField("version", LongType, nullable = false))

  def apply(args: FunctionArgs, tables: Seq[TableRetrofit]): RetrofitRelation = {
    args.noMore(5)
    val format = if (args.size > 4) args.string(4, "format") else "parquet"
    val table = if (format == "parquet") None
    else Some(tables.find(_.format == format).getOrElse(
        args.fail(s"format = '$format': expected one of ${("parquet" +: tables.map(_.format)).mkString(", ")}")))
    RetrofitRelation(args.string(0, "path"), args.string(1, "columns").split(",").map(_.trim).filter(_.nonEmpty).toSeq,
      args.double(2, "fpp"), args.boolean(3, "overwrite").getOrElse(false), table,
      SparkCompat.toAttributes(if (table.isEmpty) schema else tableSchema))
  }

  def row(r: RetrofitResult): InternalRow = new GenericInternalRow(fields(r))

  def tableRow(r: RetrofitResult, version: Long): InternalRow =
    new GenericInternalRow(fields(r) ++ Array[Any](r.target.map(UTF8String.fromString).orNull, version))

  private def fields(r: RetrofitResult): Array[Any] = Array[Any](UTF8String.fromString(r.path),
    UTF8String.fromString(r.status), UTF8String.fromString(r.columns.mkString(",")), r.chunks, r.filterBytes,
    r.fileBytes, r.seconds)
}

/** Runs the retrofit job when the query executes; its rows are the per-file results. */
final case class RetrofitExec(relation: RetrofitRelation) extends LeafExecNode {
  override def output: Seq[Attribute] = relation.output

  override protected def doExecute(): RDD[InternalRow] = {
    val r = relation
    val fpp = r.fpp.getOrElse(RetrofitJob.DefaultFpp)
    val rows = r.table match {
      case None => RetrofitJob.run(SparkSession.active, r.path, r.columns, fpp, r.overwrite).map(RetrofitRelation.row)
      case Some(table) =>
        val (version, results) = table.run(SparkSession.active, r.path, r.columns, fpp, r.overwrite)
        results.map(RetrofitRelation.tableRow(_, version))
    }
    val toUnsafe = UnsafeProjection.create(output.map(_.dataType).toArray)
    sparkContext.parallelize(rows.map(row => toUnsafe(row).copy(): InternalRow), 1)
  }
}
