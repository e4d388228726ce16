package io.bloomparquet.retrofit

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.digest.DigestRefresh
import io.bloomparquet.options.{OptionRegistry, OptionValidator, Scope}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.SparkSession

/** Writes the new files of a table format's retrofit: the format's integration gives one. */
trait TableRetrofitter {
  def prepare(table: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): PendingRetrofit
}

/**
 * Retrofit of a table format whose files never change: filters added to the files of its current
 * version without re-encoding a page, each into a new file beside the old one, committed through the
 * format's own commit. The options are checked here, the format's integration (`retrofitter`) does the rest.
 */
abstract class FormatRetrofit extends TableRetrofit {

  /** The format's retrofitter, or why this session has none. */
  protected def retrofitter(spark: SparkSession): Either[String, TableRetrofitter]

  /** How the format's table is named in messages ("a Delta table"). */
  protected def described: String

  override def run(spark: SparkSession, table: String, columns: Seq[String], fpp: Double,
      overwrite: Boolean): (Long, Seq[RetrofitResult]) = run(spark, table, columns, fpp, overwrite, Map.empty[String, String])

  def prepare(spark: SparkSession, table: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): PendingRetrofit = {
    require(columns.nonEmpty, "retrofit: give at least one column")
    OptionValidator.validate(Map(OptionRegistry.Columns.key -> columns.mkString(","), OptionRegistry.Fpp.key -> fpp.toString,
        OptionRegistry.Overwrite.key -> overwrite.toString), Seq(Scope.Retrofit))
    retrofitter(spark)
      .fold(why => throw new IllegalStateException(s"bloomparquet: retrofit of $described is refused: $why"), identity)
      .prepare(table, columns, fpp, overwrite, conf)
  }

  /** Prepares and commits; (the version committed, the results). */
  def run(spark: SparkSession, table: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): (Long, Seq[RetrofitResult]) = {
    val pending = prepare(spark, table, columns, fpp, overwrite, conf)
    val committed = pending.commit()
    if (pending.results.exists(_.status == RetrofitResult.Retrofitted)) digestRoot(table).foreach(DigestRefresh.afterWrite(spark, _))
    (committed, pending.results)
  }

  /** Where the table named `table` keeps a bloom digest, if the format has one there. */
  protected def digestRoot(table: String): Option[String]

  /** For Python: the results as `bloomparquet.retrofit` gives them, each with the version committed. */
  def runForPython(spark: SparkSession, table: String, columns: java.util.List[String], fpp: Double,
      overwrite: Boolean, conf: java.util.Map[String, String]): java.util.List[java.util.Map[String, Any]] = {
    val (version, results) = run(spark, table, columns.asScala.toSeq, fpp, overwrite, conf.asScala.toMap)
    RetrofitJob.forPython(results).asScala.map { m =>
      val withVersion = new java.util.HashMap[String, Any](m)
      withVersion.put("version", version)
      withVersion: java.util.Map[String, Any]
    }.asJava
  }

  /** For Python (the race tests): prepared, not committed. */
  def prepareForPython(spark: SparkSession, table: String, columns: java.util.List[String], fpp: Double,
      overwrite: Boolean): PendingRetrofit =
    prepare(spark, table, columns.asScala.toSeq, fpp, overwrite, Map.empty)
}

object FormatRetrofit {
  /** The prefix a retrofitted file's name gets (dropped again when it is retrofitted once more). */
  private val Renamed = "^bloom-[0-9a-f-]{36}-"

  /** A file name without the prefix an earlier retrofit gave it. */
  def unprefixed(name: String): String = name.replaceFirst(Renamed, "")

  /** Removes files no commit names, ignoring failures (the files are nobody's either way). */
  def removeQuietly(files: Seq[String], conf: Configuration): Unit = files.map(new Path(_)).foreach { p =>
    try p.getFileSystem(conf).delete(p, false)
    catch { case NonFatal(_) => }
  }
}
