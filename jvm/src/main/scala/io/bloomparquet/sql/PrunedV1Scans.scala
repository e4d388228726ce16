package io.bloomparquet.sql

import io.bloomparquet.compat.{DynamicKeySets, ExecutedScans}
import io.bloomparquet.options.SparkPushdown
import io.bloomparquet.spark.PrunedScanFormat
import io.bloomparquet.spark.metrics.PrunedFileIndex
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, SparkPlan}
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat

/**
 * V1 Parquet scans over a file index bloomparquet pruned while planning (a Delta Lake read: Delta
 * plans its own scan, and its deletion vectors are planned for its own format, so the format is
 * swapped only here, in the physical plan) read through [[PrunedScanFormat]]: only the row groups
 * planning kept (where the format lets Spark split its files), and only the filters
 * `bloom.sparkPushdown` lets Spark's reader have. A physical rule: Spark's columnar rules run on
 * every physical plan, adaptive or not, before its transitions are placed. A scan over an index
 * that prunes at runtime reads through a copy of it that finds the keys of the dynamic pruning
 * filters above the scan, computed before the scan lists its files.
 */
object PrunedV1Scans extends ColumnarRule {

  override def preColumnarTransitions: Rule[SparkPlan] = Swap

  private object Swap extends Rule[SparkPlan] {
    override def apply(plan: SparkPlan): SparkPlan = {
      val keyed = DynamicKeySets.intoScans(plan) {
        case (index: PrunedFileIndex, keySets) if index.prunesAtRuntime => Some(index.withKeySets(keySets))
        case _ => None
      }
      ExecutedScans.replacingFileFormats(keyed) {
        case (index: PrunedFileIndex, format: ParquetFileFormat, splitable) if !format.isInstanceOf[PrunedScanFormat] =>
          val cut = (index.prunesAtRuntime || index.filesCut > 0) && index.anyFile.exists(p => splitable(new Path(p)))
          if (!cut && index.sparkPushdown == SparkPushdown.All) None
          else {
            val rowGroups = if (cut) PrunedScanFormat.Cut(index.filesCut, index.prunesAtRuntime) else PrunedScanFormat.Whole
            Some(new PrunedScanFormat(format, rowGroups, index.gapBytes, index.sparkPushdown))
          }
        case _ => None
      }
    }
  }
}
