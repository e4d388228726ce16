package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.digest.{DigestBuilt, DigestJob, DigestRefresh}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, GenericInternalRow, UnsafeProjection}
import org.apache.spark.sql.catalyst.plans.logical.LeafNode
import org.apache.spark.sql.execution.LeafExecNode
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * `SELECT * FROM bloomparquet_digest(path, columns[, fpp[, full]])`: a table's bloom digest built as
 * SQL, and so over Spark Connect; one row saying what was built. `bloomparquet_digest(path)`
 * rebuilds the table's digest for the columns and bound it was built with, if it has one (no row
 * if not). A query, not a command, as [[RetrofitRelation]] is.
 */
final case class DigestRelation(path: String, columns: Option[Seq[String]], fpp: Option[Double], full: Boolean,
    output: Seq[Attribute]) extends LeafNode

object DigestRelation {
  val schema: StructType = StructType(Seq(
      StructField("path", StringType, nullable = false), StructField("files", IntegerType, nullable = false),
      StructField("files_skipped", IntegerType, nullable = false), StructField("files_reused", IntegerType, nullable = false),
      StructField("entries", IntegerType, nullable = false),
      StructField("classes", IntegerType, nullable = false), StructField("bytes_read", LongType, nullable = false),
      StructField("filter_bytes", LongType, nullable = false), StructField("digest_bytes", LongType, nullable = false),
      StructField("seconds", DoubleType, nullable = false)))

  def apply(args: FunctionArgs): DigestRelation = {
    args.noMore(4)
    val columns = if (args.size == 1) None
    else Some(args.string(1, "columns").split(",").map(_.trim).filter(_.nonEmpty).toSeq)
    DigestRelation(args.string(0, "path"), columns, args.double(2, "fpp"), args.boolean(3, "full").getOrElse(false),
      SparkCompat.toAttributes(schema))
  }

  def row(b: DigestBuilt): InternalRow = new GenericInternalRow(Array[Any](UTF8String.fromString(b.path), b.files,
      b.filesSkipped, b.filesReused, b.entries, b.classes, b.bytesRead, b.filterBytes, b.digestBytes, b.seconds))
}

/** Builds the digest when the query executes. */
final case class DigestExec(relation: DigestRelation) extends LeafExecNode {
  override def output: Seq[Attribute] = relation.output

  override protected def doExecute(): RDD[InternalRow] = {
    val r = relation
    val spark = SparkSession.active
    val built = r.columns match {
      case Some(columns) => Some(DigestJob.build(spark, r.path, columns, r.fpp.getOrElse(DigestJob.DefaultFpp), r.full))
      case None => DigestRefresh.ifPresent(spark, r.path)
    }
    val toUnsafe = UnsafeProjection.create(output.map(_.dataType).toArray)
    sparkContext.parallelize(built.map(b => toUnsafe(DigestRelation.row(b)).copy(): InternalRow).toSeq, 1)
  }
}
