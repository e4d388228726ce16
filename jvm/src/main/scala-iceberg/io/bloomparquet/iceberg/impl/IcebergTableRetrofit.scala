package io.bloomparquet.iceberg.impl

import java.util.UUID

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.retrofit.{FormatRetrofit, PendingRetrofit, RetrofitJob, RetrofitResult, TableRetrofitter}
import io.bloomparquet.schema.{ColumnName, FileColumn}
import org.apache.hadoop.fs.Path
import org.apache.iceberg.{DataFile, DataFiles, FileFormat, FileScanTask, HasTableOperations, Table}
import org.apache.iceberg.exceptions.CommitStateUnknownException
import org.apache.iceberg.spark.Spark3Util
import org.apache.spark.sql.SparkSession

/**
 * [[TableRetrofitter]] on Iceberg's own API. The data files of the table's current snapshot (planned with
 * their statistics) are retrofitted by a Spark job into new files beside them, columns matched by field
 * id (a renamed column is found under its old name in older files; files written before a column was
 * added are skipped for it). The commit is a `RewriteFiles` validated from the snapshot read: each new
 * file is the old one's entry with a new path and size (statistics, partition, split offsets and sort
 * order carried over; the row groups are copied byte for byte, so they start where they did). Iceberg
 * then fails the commit if a concurrent commit removed one of the files or added a delete for one, and
 * the new files are removed.
 *
 * Format version 3 is refused: Iceberg gives every file a commit adds new row ids (only a rewrite that
 * writes `_row_id` into the file keeps them). A file some delete already applies to is left as it is
 * (status `deletes-apply`): a position delete or deletion vector names its file by path, and the new
 * file would get a fresh sequence number that older equality deletes no longer reach; a rewrite that
 * applies them (`rewrite_data_files`) must replace it.
 */
final class IcebergTableRetrofit(spark: SparkSession) extends TableRetrofitter {

  override def prepare(name: String, columns: Seq[String], fpp: Double, overwrite: Boolean,
      conf: Map[String, String]): PendingRetrofit = {
    val table = Spark3Util.loadIcebergTable(spark, name)
    table.refresh() // the session catalog may cache the table: retrofit the current snapshot
    val formatVersion = table match {
      case t: HasTableOperations => t.operations().current().formatVersion()
      case _ => 1
    }
    if (formatVersion >= 3)
      throw new IllegalArgumentException(s"bloomparquet: retrofit of $name is refused: format version 3 keeps row " +
        "lineage, and Iceberg gives the files a commit adds new row ids, so a copy of a file would change its rows' " +
        "_row_id; rewrite_data_files (with bp.iceberg_filter_properties set) writes filters and keeps the ids")
    val snapshot = Option(table.currentSnapshot())
    val columnsById = new FieldIdColumns(table.schema(), SparkCompat.caseSensitive(spark))
    val wanted = columns.map { c =>
      val parts = ColumnName.parts(c)
      FileColumn.FieldIds(c,
        columnsById.ids(parts).getOrElse(throw new IllegalArgumentException(
            s"bloomparquet: retrofit: unknown column '$c'; the table's columns are " +
              table.schema().columns.asScala.map(_.name).mkString(", "))))
    }
    val planned = snapshot.toSeq.flatMap(s => scanTasks(table, s.snapshotId()))
    val (clean, withDeletes) = planned.partition(t => t.deletes().isEmpty && t.file().format() == FileFormat.PARQUET)
    val files = clean.map(_.file())
    val hadoopConf = SparkCompat.newHadoopConf(spark)
    conf.foreach { case (k, v) => hadoopConf.set(k, v) }
    val tasks = files.map { f =>
      val src = new Path(f.location())
      val prefix = s"bloom-${UUID.randomUUID()}-"
      RetrofitJob.RetrofitTask(src.toString, Some(new Path(src.getParent, prefix + FormatRetrofit.unprefixed(src.getName)).toString),
        skipAbsent = true)
    }
    val results =
      try RetrofitJob.runTasks(spark, tasks, wanted, fpp, overwrite, hadoopConf)
      catch {
        case NonFatal(e) =>
          FormatRetrofit.removeQuietly(tasks.flatMap(_.copyTo), hadoopConf)
          throw e
      }
    val left = withDeletes.map { t =>
      val status = if (t.file().format() == FileFormat.PARQUET) IcebergTableRetrofit.DeletesApply else RetrofitResult.Unchanged
      RetrofitResult(t.file().location(), status, Nil, 0, 0, t.file().fileSizeInBytes(), 0.0)
    }
    new Pending(table, snapshot.map(_.snapshotId()).getOrElse(-1L), files.zip(results), left, hadoopConf)
  }

  /** The current snapshot's data files, one task each, with their column statistics (the new entries keep them). */
  private def scanTasks(table: Table, snapshotId: Long): Seq[FileScanTask] = {
    val tasks = table.newScan().useSnapshot(snapshotId).includeColumnStats().planFiles()
    try tasks.asScala.toList
    finally tasks.close()
  }

  private final class Pending(table: Table, read: Long, files: Seq[(DataFile, RetrofitResult)], left: Seq[RetrofitResult],
      conf: org.apache.hadoop.conf.Configuration) extends PendingRetrofit {
    override val results: Seq[RetrofitResult] = files.map(_._2) ++ left
    override def readVersion: Long = read

    override def commit(): Long = {
      val done = files.collect { case (old, r) if r.target.isDefined => (old, r) }
      if (done.isEmpty) return read
      val rewrite = table.newRewrite().validateFromSnapshot(read)
      done.foreach { case (old, r) =>
        rewrite.deleteFile(old)
        rewrite.addFile(DataFiles.builder(table.specs().get(old.specId())).copy(old)
            .withPath(r.target.get).withFileSizeInBytes(r.fileBytes).build())
      }
      rewrite.set(IcebergTableRetrofit.SummaryKey, "true")
      try rewrite.commit()
      catch {
        case e: CommitStateUnknownException => throw e // the commit may have landed: its files must stay
        case NonFatal(e) => abandon(); throw e
      }
      table.currentSnapshot().snapshotId()
    }

    override def abandon(): Unit = FormatRetrofit.removeQuietly(files.flatMap(_._2.target), conf)
  }
}

object IcebergTableRetrofit {
  /** The status of a file left as it is because a delete applies to it. */
  val DeletesApply = "deletes-apply"
  /** The snapshot summary's mark of the rewrite: bloomparquet's retrofit. */
  val SummaryKey = "bloomparquet.retrofit"
}
