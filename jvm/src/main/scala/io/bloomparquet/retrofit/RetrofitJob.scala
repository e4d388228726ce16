package io.bloomparquet.retrofit

import java.util.UUID

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.digest.DigestRefresh
import io.bloomparquet.options.{OptionRegistry, OptionValidator, Scope}
import io.bloomparquet.planning.DataFiles
import io.bloomparquet.schema.FileColumn
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.{JobExecutionStatus, SparkContext, SparkJobInfo}
import org.apache.spark.sql.SparkSession
import org.apache.spark.util.SerializableConfiguration

/**
 * Retrofit as a Spark job: one task per Parquet file under `path` (a file, a
 * directory searched recursively, or a glob; names starting with `_` or `.` are
 * skipped, as Spark does). A failed task fails the job and leaves its file as it
 * was; files already done keep their filters, so re-running resumes. A failed run
 * returns its error once all its tasks have ended, so no temporary file is left then.
 */
object RetrofitJob {
  val DefaultFpp: Double = OptionRegistry.Fpp.default.get

  def run(spark: SparkSession, path: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      extraConf: Map[String, String] = Map.empty): Seq[RetrofitResult] = {
    require(columns.nonEmpty, "retrofit: give at least one column")
    OptionValidator.validate(Map(OptionRegistry.Columns.key -> columns.mkString(","), OptionRegistry.Fpp.key -> fpp.toString,
        OptionRegistry.Overwrite.key -> overwrite.toString), Seq(Scope.Retrofit))
    val conf = SparkCompat.newHadoopConf(spark)
    extraConf.foreach { case (k, v) => conf.set(k, v) }
    val files = DataFiles.paths(path, conf)
    val results = runTasks(spark, files.map(f => RetrofitTask(f)), columns.map(FileColumn.dotted), fpp, overwrite, conf)
    if (results.exists(_.status == RetrofitResult.Retrofitted)) DigestRefresh.afterWrite(spark, path)
    results
  }

  /** One file to retrofit: in place, or into a new file at `copyTo`, skipping columns it lacks with `skipAbsent`. */
  final case class RetrofitTask(path: String, copyTo: Option[String] = None, skipAbsent: Boolean = false)

  /** One Spark task per file; a failed run returns its error once all its tasks have ended. */
  def runTasks(spark: SparkSession, tasks: Seq[RetrofitTask], columns: Seq[FileColumn], fpp: Double, overwrite: Boolean,
      conf: Configuration): Seq[RetrofitResult] = {
    if (tasks.isEmpty) return Nil
    val shipped = new SerializableConfiguration(conf)
    val cols = columns.toVector
    val caseSensitive = SparkCompat.caseSensitive(spark)
    val sc = spark.sparkContext
    val tag = s"bloomparquet-retrofit-${UUID.randomUUID()}"
    sc.addJobTag(tag)
    try {
      sc.parallelize(tasks, tasks.size)
        .map(t =>
          RetrofitFile.run(new Path(t.path), shipped.value, cols, fpp, overwrite, caseSensitive,
            t.copyTo.map(new Path(_)), t.skipAbsent))
        .collect()
        .toSeq
    } catch {
      case NonFatal(e) => settle(sc, tag); throw e
    } finally sc.removeJobTag(tag)
  }

  /**
   * Waits (up to `timeoutMs`) until no task of the tagged jobs still runs. A failed task fails
   * the job at once, while Spark lets the others run on (they are not interrupted); each of those
   * removes its own temporary file, so once they end the directory holds originals only. The
   * status store learns of events in order: once it shows the job ended, it has seen every task
   * start, and its active-task counts fall as those tasks end.
   */
  private def settle(sc: SparkContext, tag: String, timeoutMs: Long = 120000): Unit = {
    val tracker = sc.statusTracker
    def jobs = tracker.getJobIdsForTag(tag).toSeq.flatMap(id => tracker.getJobInfo(id).toSeq)
    def running(js: Seq[SparkJobInfo]): Boolean = js.exists(_.status == JobExecutionStatus.RUNNING) ||
      js.flatMap(_.stageIds.toSeq).flatMap(id => tracker.getStageInfo(id).toSeq).exists(_.numActiveTasks > 0)
    val start = System.nanoTime()
    def elapsedMs = (System.nanoTime() - start) / 1000000L
    var js = jobs
    // No job after a few seconds: it failed before it was submitted, so no task runs.
    while (elapsedMs < timeoutMs && (if (js.isEmpty) elapsedMs < 5000 else running(js))) {
      Thread.sleep(20)
      js = jobs
    }
  }

  /** For Python: results as one map per file. */
  def runForPython(spark: SparkSession, path: String, columns: java.util.List[String], fpp: Double,
      overwrite: Boolean, extraConf: java.util.Map[String, String]): java.util.List[java.util.Map[String, Any]] =
    forPython(run(spark, path, columns.asScala.toSeq, fpp, overwrite, extraConf.asScala.toMap))

  /** One map per file; `target` where the filters went into a new file. */
  def forPython(results: Seq[RetrofitResult]): java.util.List[java.util.Map[String, Any]] =
    results.map { r =>
      (Map[String, Any]("path" -> r.path, "status" -> r.status, "columns" -> r.columns.mkString(","),
        "chunks" -> r.chunks, "filter_bytes" -> r.filterBytes, "file_bytes" -> r.fileBytes,
        "seconds" -> r.seconds) ++ r.target.map("target" -> _)).asJava
    }.asJava
}
