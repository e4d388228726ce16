package io.bloomparquet.iceberg.impl

import java.lang.reflect.Method

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.iceberg.{PartitionScanTask, Schema}
import org.apache.spark.sql.connector.catalog.Table
import org.apache.spark.sql.connector.read.Scan

/**
 * The planned tasks of an Iceberg batch scan, and a way to give it fewer. Iceberg's Spark scan keeps
 * the files its planning kept as uncombined tasks and groups them into Spark's input partitions only
 * when asked for its batch; its runtime filtering narrows them through the same protected pair
 * (`tasks()`, `resetTasks`) this reaches, before the batch is built, so the scan then groups, splits
 * and reads what is left exactly as it would have. Iceberg's classes are not public API here: this is
 * the one place that reaches into them, by name, and a runtime without them is left alone (`None`).
 */
private[impl] object IcebergScanTasks {

  /** The class of Iceberg's scan of a table's snapshot (not of its changes, its metadata or a row-level write). */
  val BatchQueryScan = "org.apache.iceberg.spark.source.SparkBatchQueryScan"

  private final case class Access(tasks: Method, reset: Method, projection: Method)

  private lazy val access: Option[Access] =
    try {
      val scan = Class.forName(BatchQueryScan, false, classOf[PartitionScanTask].getClassLoader)
      def find(name: String, params: Class[_]*): Method = {
        val declaring = Iterator.iterate[Class[_]](scan)(_.getSuperclass).takeWhile(_ != null)
          .find(_.getDeclaredMethods.exists(m => m.getName == name && m.getParameterTypes.sameElements(params)))
          .getOrElse(throw new NoSuchMethodException(s"$BatchQueryScan.$name"))
        val m = declaring.getDeclaredMethod(name, params: _*)
        m.setAccessible(true)
        m
      }
      // The projection is `projection()` from Iceberg 1.11 on, `expectedSchema()` before.
      val projection = scala.util.Try(find("projection")).getOrElse(find("expectedSchema"))
      Some(Access(find("tasks"), find("resetTasks", classOf[java.util.List[_]]), projection))
    } catch { case NonFatal(_) | _: LinkageError => None }

  /** Whether `scan` is a batch scan of an Iceberg table's snapshot whose tasks this can reach. */
  def reachable(scan: Scan): Boolean = scan.getClass.getName == BatchQueryScan && access.isDefined

  /** Whether `table` is Spark's view of a table a row-level operation (DELETE, UPDATE, MERGE) reads to rewrite. */
  def ofRowLevelOperation(table: Table): Boolean = table.getClass.getSimpleName == "RowLevelOperationTable"

  /** The tasks the scan's planning kept (Iceberg plans its files now, if it has not yet). */
  def tasks(scan: Scan): Seq[PartitionScanTask] =
    access.get.tasks.invoke(scan).asInstanceOf[java.util.List[PartitionScanTask]].asScala.toSeq

  /** The scan's projection: the table schema's (the snapshot's) fields it reads, with their ids. */
  def projection(scan: Scan): Schema = access.get.projection.invoke(scan).asInstanceOf[Schema]

  /** Makes the scan read `kept` (a subset of its tasks) from now on. */
  def keepOnly(scan: Scan, kept: Seq[PartitionScanTask]): Unit =
    access.get.reset.invoke(scan, new java.util.ArrayList[PartitionScanTask](kept.asJava))
}
