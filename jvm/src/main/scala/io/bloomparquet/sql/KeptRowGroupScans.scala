package io.bloomparquet.sql

import io.bloomparquet.compat.ExecutedScans
import io.bloomparquet.spark.KeptRowGroupsFormat
import io.bloomparquet.spark.metrics.PrunedFileIndex
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, SparkPlan}
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat

/**
 * V1 Parquet scans over a file index bloomparquet pruned while planning (a Delta Lake read: Delta
 * plans its own scan, and its deletion vectors are planned for its own format, so the format is
 * swapped only here, in the physical plan) read only the row groups planning kept, through
 * [[KeptRowGroupsFormat]]. A physical rule: Spark's columnar rules run on every physical plan,
 * adaptive or not, before its transitions are placed.
 */
object KeptRowGroupScans extends ColumnarRule {

  override def preColumnarTransitions: Rule[SparkPlan] = Narrow

  private object Narrow extends Rule[SparkPlan] {
    override def apply(plan: SparkPlan): SparkPlan = ExecutedScans.replacingFileFormats(plan) {
      case (index: PrunedFileIndex, format: ParquetFileFormat, splitable)
          if index.keptRowGroups.nonEmpty && !format.isInstanceOf[KeptRowGroupsFormat] &&
            splitable(new Path(index.keptRowGroups.keys.head)) =>
        Some(new KeptRowGroupsFormat(format, index.keptRowGroups, index.gapBytes))
      case _ => None
    }
  }
}
