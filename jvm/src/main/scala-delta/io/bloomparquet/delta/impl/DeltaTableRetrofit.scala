package io.bloomparquet.delta.impl

import java.util.UUID

import scala.util.control.NonFatal

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.delta.PhysicalColumns
import io.bloomparquet.retrofit.{FormatRetrofit, PendingRetrofit, RetrofitJob, RetrofitResult, TableRetrofitter}
import io.bloomparquet.schema.{ColumnName, FileColumn}
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.col
import org.apache.spark.sql.delta.{DeltaLog, DeltaOperations, NoMapping, OptimisticTransaction}
import org.apache.spark.sql.delta.actions.{Action, AddFile}

/**
 * [[TableRetrofitter]] on Delta's transaction API: the transaction reads every file of the latest
 * version (so a concurrent commit that removes or rewrites any of them conflicts), the files are
 * retrofitted by a Spark job into new files beside them, and the commit removes the old files and
 * adds the new ones with `dataChange=false`, each `AddFile` the old one with a new path, size and
 * time: statistics, deletion vector (the rows keep their positions: row groups are copied byte for
 * byte), partition values, tags and row ids carried over.
 */
final class DeltaTableRetrofit(spark: SparkSession) extends TableRetrofitter {

  override def prepare(path: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): PendingRetrofit = {
    val log = DeltaLog.forTable(spark, new Path(path))
    val txn = log.startTransaction(None)
    if (txn.readVersion < 0) throw new IllegalArgumentException(s"bloomparquet: $path is not a Delta table")
    val metadata = txn.metadata
    val partitions = metadata.partitionColumns.toSet
    val physical = new PhysicalColumns(metadata.schema, metadata.columnMappingMode != NoMapping, byId = false,
      SparkCompat.caseSensitive(spark))
    val names = columns.map { name =>
      val parts = ColumnName.parts(name)
      if (parts.size == 1 && partitions.exists(_.equalsIgnoreCase(parts.head)))
        throw new IllegalArgumentException(s"bloomparquet: retrofit: '$name' is a partition column: its values are not in the files")
      val (path, _) = physical.leaf(parts).getOrElse(throw new IllegalArgumentException(
          s"bloomparquet: retrofit: unknown column '$name'; the table's columns are ${metadata.schema.fieldNames.mkString(", ")}"))
      path.map(p => s"`${p.replace("`", "``")}`").mkString(".")
    }
    // The files as the transaction reads them (a concurrent commit removing one conflicts), with the statistics
    // the log holds for them (the transaction's file list drops them).
    val stats = txn.snapshot.allFiles.select(col("path"), col("stats")).collect()
      .map(r => r.getString(0) -> Option(r.getString(1))).toMap
    val adds = txn.filterFiles().map(a => if (a.stats != null) a else a.copy(stats = stats.get(a.path).flatten.orNull))
    val hadoopConf = SparkCompat.newHadoopConf(spark)
    conf.foreach { case (k, v) => hadoopConf.set(k, v) }
    val planned = adds.map(a => (a, s"bloom-${UUID.randomUUID()}-"))
    val tasks = planned.map { case (a, prefix) =>
      val src = absolute(log.dataPath, a)
      RetrofitJob.RetrofitTask(src.toString, Some(new Path(src.getParent, prefix + FormatRetrofit.unprefixed(src.getName)).toString),
        skipAbsent = true)
    }
    val results =
      try RetrofitJob.runTasks(spark, tasks, names.map(FileColumn.dotted), fpp, overwrite, hadoopConf)
      catch {
        case NonFatal(e) => // the files other tasks wrote are nobody's: no commit will name them
          FormatRetrofit.removeQuietly(tasks.flatMap(_.copyTo), hadoopConf)
          throw e
      }
    new Pending(log, txn, planned.map { case (a, prefix) => (a, renamed(a.path, prefix)) }.zip(results))
  }

  /** The file's absolute path. */
  private def absolute(dataPath: Path, a: AddFile): Path = {
    val uri = new java.net.URI(a.path)
    if (uri.isAbsolute) new Path(uri) else new Path(dataPath, new Path(uri))
  }

  /** The log's (URI-encoded) path of the new file: beside the old one, its name prefixed. */
  private def renamed(logPath: String, prefix: String): String = {
    val slash = logPath.lastIndexOf('/')
    logPath.substring(0, slash + 1) + prefix + FormatRetrofit.unprefixed(logPath.substring(slash + 1))
  }

  private final class Pending(log: DeltaLog, txn: OptimisticTransaction, files: Seq[((AddFile, String), RetrofitResult)])
      extends PendingRetrofit {
    override val results: Seq[RetrofitResult] = files.map(_._2)
    override def readVersion: Long = txn.readVersion

    override def commit(): Long = {
      val now = System.currentTimeMillis()
      val actions: Seq[Action] = files.collect {
        case ((a, rel), r) if r.target.isDefined =>
          Seq(a.removeWithTimestamp(now, dataChange = false),
            a.copy(path = rel, size = r.fileBytes, modificationTime = r.targetModificationTime.getOrElse(now),
              dataChange = false))
      }.flatten
      if (actions.isEmpty) return txn.readVersion
      try txn.commit(actions, DeltaOperations.Optimize(Nil), Map(DeltaTableRetrofit.Tag -> "true"))
      catch { case NonFatal(e) => abandon(); throw e }
    }

    override def abandon(): Unit = FormatRetrofit.removeQuietly(files.flatMap(_._2.target), log.newDeltaHadoopConf())
  }
}

object DeltaTableRetrofit {
  /** The commit's tag: the rewrite is bloomparquet's retrofit (history shows it as OPTIMIZE). */
  val Tag = "bloomparquet.retrofit"
}
