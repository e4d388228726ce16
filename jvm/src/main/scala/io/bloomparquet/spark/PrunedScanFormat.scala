package io.bloomparquet.spark

import io.bloomparquet.compat.{DelegatingParquetFormat, SparkCompat}
import io.bloomparquet.options.SparkPushdown
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType

/**
 * The format of a V1 Parquet scan bloomparquet pruned while planning (a Delta Lake read), made of
 * the scan's own (`delegate`, Delta's):
 *
 *  - where `rowGroups` cuts files, its tasks read only the row groups kept: each split of a file its
 *    index listed with [[io.bloomparquet.planning.KeptRowGroups]] ([[io.bloomparquet.planning.KeptRowGroups.OfListedFile]]) is read as the runs of
 *    kept row groups it owns ([[io.bloomparquet.planning.KeptRowGroups.ranges]], parquet-java's midpoint rule),
 *    each through the delegate's own reader, so everything it does per file (deletion vectors,
 *    column mapping, row indexes from the footer) happens as for any split of the file. Given only
 *    for formats whose files Spark may split anyhow: a reader that counts row indexes itself is
 *    never handed a range. A file that is another version than planning judged is read as Spark
 *    split it.
 *  - its reader gets the filters `pushdown` lets through (`bloom.sparkPushdown`, each judged by
 *    `pruning.PushdownSafety`, as in every scan we prune): Delta's format would push every filter
 *    Spark's does, of risky types too.
 */
final class PrunedScanFormat(delegate: ParquetFileFormat, val rowGroups: PrunedScanFormat.RowGroups, val gapBytes: Long,
    val pushdown: SparkPushdown) extends DelegatingParquetFormat(delegate) {

  override protected def pushed(spark: SparkSession, filters: Seq[Filter], dataSchema: StructType): Seq[Filter] = {
    val caseSensitive = SparkCompat.caseSensitive(spark)
    ReaderFilters.of(pushdown, filters, dataSchema, caseSensitive)
  }

  override protected def reading(spark: SparkSession, hadoopConf: Configuration, pushed: Seq[Filter],
      reader: Configuration => PartitionedFile => Iterator[InternalRow]): PartitionedFile => Iterator[InternalRow] = {
    val plain = reader(hadoopConf)
    val skipping = PageSkipping.of(spark, pushdown, pushed)
    val cut = rowGroups != PrunedScanFormat.Whole
    if (!cut && skipping.isEmpty) plain
    else {
      val conf = ScanBroadcasts.of(spark, hadoopConf).configuration(hadoopConf)
      val read = skipping.fold(plain)(_.choose(plain, reader(PageSkipping.on(hadoopConf)), conf))
      new V1SplitReading(read, conf, cutByPlanning = cut, gapBytes, inTask = None)
    }
  }

  // EXPLAIN's `Format`.
  override def toString: String =
    s"$delegate, bloom: $rowGroups, sparkPushdown ${pushdown.name}"

  override def equals(other: Any): Boolean = other match {
    case o: PrunedScanFormat =>
      o.delegate == delegate && o.rowGroups == rowGroups && o.gapBytes == gapBytes && o.pushdown == pushdown
    case _ => false
  }
  override def hashCode(): Int = delegate.hashCode() * 31 + rowGroups.hashCode()
}

object PrunedScanFormat {

  /** Whether the scan's tasks cut files to the row groups their index kept. */
  sealed trait RowGroups

  /** Every file read as Spark split it (only the scan's filters judged). */
  case object Whole extends RowGroups {
    override def toString: String = "files read whole"
  }

  /** Files cut: `atPlanning` of them when the scan was planned, and, `atRuntime`, as key sets computed at run time cut them. */
  final case class Cut(atPlanning: Int, atRuntime: Boolean) extends RowGroups {
    override def toString: String =
      s"row groups cut in $atPlanning files" + (if (atRuntime) ", and where key sets cut them at runtime" else "")
  }
}
