package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.pruning.CatalystPredicates
import io.bloomparquet.schema.ColumnResolver
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.connector.read.Scan
import org.apache.spark.sql.execution.datasources.v2.FileScanBuilder
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetScanBuilder
import org.apache.spark.sql.types.StructType

/**
 * Spark's Parquet scan builder (delegated to: partition filters, column and
 * nested-column pruning, Spark's own Parquet pushdown of the filters
 * `bloom.sparkPushdown` lets through) plus the bloom predicate taken from all
 * data filters. Aggregate pushdown is not
 * offered: it would answer from footers and bypass nothing of ours, but also
 * nothing of our pruning.
 */
final class BloomParquetScanBuilder(delegate: ParquetScanBuilder, settings: ReadSettings, notes: PlanNotes)
// A FileScanBuilder by class because Spark 4.0 pushes Catalyst filters only to those
// (4.1+ to any SupportsPushDownCatalystFilters); its own state is unused: all is delegated.
    extends FileScanBuilder(delegate.sparkSession, delegate.fileIndex, delegate.dataSchema) {

  // Data filters kept from Spark's Parquet pushdown: still evaluated after the scan, still used by us.
  private var withheld = Seq.empty[Expression]
  // Data filters handed to Spark's Parquet pushdown.
  private var shown = Seq.empty[Expression]

  private lazy val partitionColumns = delegate.fileIndex.partitionSchema.fieldNames.toSeq
  // Without case whatever the session says: a name that may be a partition column is treated as one.
  private def isPartitionColumn(name: String) = partitionColumns.exists(ColumnResolver.sameName(_, name, caseSensitive = false))
  private def onPartitionColumn(e: Expression) = e.references.exists(a => isPartitionColumn(a.name))

  override def pushFilters(filters: Seq[Expression]): Seq[Expression] = {
    def isDataFilter(e: Expression) =
      e.deterministic && e.references.exists(a => !isPartitionColumn(a.name))
    val (data, other) = filters.partition(isDataFilter)
    val (show, hide) = ReaderFilters.split(settings.bloom.sparkPushdown, data, delegate.dataSchema)
    withheld = hide
    shown = show
    delegate.pushFilters(other ++ show) ++ hide
  }

  override def pushedFilters: Array[Predicate] = delegate.pushedFilters

  override def pruneColumns(requiredSchema: StructType): Unit = delegate.pruneColumns(requiredSchema)

  override def build(): Scan = {
    val built = delegate.build()
    val scan = PerFileTimestampFilters.missing(delegate.sparkSession, shown, built.pushedFilters.toSeq) match {
      case Nil => built
      case more => SparkCompat.withPushedFilters(built, built.pushedFilters.toSeq ++ more)
    }
    val predicate =
      if (SparkCompat.matchesByFieldId(settings.fieldIdRead, scan.readDataSchema)) None
      // A data filter may also name a partition column (`p = 1 OR x = 2`): Spark takes `p` from the
      // directory, while a file may store a column `p` of its own. Such filters are not probed.
      else CatalystPredicates.fromFilters((scan.dataFilters ++ withheld).filterNot(onPartitionColumn))
    new BloomParquetScan(scan, predicate, settings, notes)
  }
}
