package io.bloomparquet.delta

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.options.{OptionRegistry, OptionValidator, Scope}
import io.bloomparquet.retrofit.{RetrofitJob, RetrofitResult, TableRetrofit}
import org.apache.spark.sql.SparkSession

/** A Delta retrofit whose new files are written and checked, not yet committed. */
trait PendingRetrofit {
  /** One per file of the table's version read: `target` holds the new file of each one retrofitted. */
  def results: Seq[RetrofitResult]

  /** The version read; the new files replace the old ones only as of a later one. */
  def readVersion: Long

  /**
   * Commits the new files in place of the old ones (a `dataChange=false` rewrite, as OPTIMIZE's) and
   * returns the version committed, the version read when there was nothing to commit. A concurrent
   * commit that removed or rewrote a file read fails it with Delta's conflict error, having removed
   * the new files.
   */
  def commit(): Long

  /** Removes the new files, committing nothing. */
  def abandon(): Unit

  def resultsForPython: java.util.List[java.util.Map[String, Any]] = RetrofitJob.forPython(results)
}

/** Writes the new files of a Delta retrofit ([[DeltaIntegration.retrofitter]]). */
trait DeltaRetrofitter {
  def prepare(path: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): PendingRetrofit
}

/**
 * Retrofit of a Delta Lake table: filters added to the files of its latest version without
 * re-encoding a page, each into a new file beside the old one (a Delta table's files never change),
 * committed through Delta's own transaction as a `dataChange=false` rewrite: statistics, deletion
 * vectors, partition values and tags carried over, no log entry written by hand.
 */
object DeltaRetrofit extends TableRetrofit {
  override val format: String = "delta"

  override def run(spark: SparkSession, path: String, columns: Seq[String], fpp: Double,
      overwrite: Boolean): (Long, Seq[RetrofitResult]) = run(spark, path, columns, fpp, overwrite, Map.empty[String, String])

  def prepare(spark: SparkSession, path: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): PendingRetrofit = {
    require(columns.nonEmpty, "retrofit: give at least one column")
    OptionValidator.validate(Map(OptionRegistry.Columns.key -> columns.mkString(","), OptionRegistry.Fpp.key -> fpp.toString,
        OptionRegistry.Overwrite.key -> overwrite.toString), Seq(Scope.Retrofit))
    DeltaIntegration.load("run it where Delta Lake is loaded, on a Spark minor it has a release for")
      .fold(why => throw new IllegalStateException(s"bloomparquet: retrofit of a Delta table is refused: $why"), identity)
      .retrofitter(spark).prepare(path, columns, fpp, overwrite, conf)
  }

  /** Prepares and commits; (the version committed, the results). */
  def run(spark: SparkSession, path: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): (Long, Seq[RetrofitResult]) = {
    val pending = prepare(spark, path, columns, fpp, overwrite, conf)
    (pending.commit(), pending.results)
  }

  /** For Python: the results as `bloomparquet.retrofit` gives them, each with the version committed. */
  def runForPython(spark: SparkSession, path: String, columns: java.util.List[String], fpp: Double,
      overwrite: Boolean, conf: java.util.Map[String, String]): java.util.List[java.util.Map[String, Any]] = {
    val (version, results) = run(spark, path, columns.asScala.toSeq, fpp, overwrite, conf.asScala.toMap)
    RetrofitJob.forPython(results).asScala.map { m =>
      val withVersion = new java.util.HashMap[String, Any](m)
      withVersion.put("version", version)
      withVersion: java.util.Map[String, Any]
    }.asJava
  }

  /** For Python (the race test): prepared, not committed. */
  def prepareForPython(spark: SparkSession, path: String, columns: java.util.List[String], fpp: Double,
      overwrite: Boolean): PendingRetrofit =
    prepare(spark, path, columns.asScala.toSeq, fpp, overwrite, Map.empty)

  private[delta] def quietly(f: => Unit): Unit = try f
  catch { case NonFatal(_) => }
}
