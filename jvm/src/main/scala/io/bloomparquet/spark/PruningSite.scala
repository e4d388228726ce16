package io.bloomparquet.spark

import org.apache.hadoop.fs.Path
import org.apache.spark.sql.SparkSession

/** Where [[SplitPruning]] runs, which decides how many files it reads at once. */
sealed trait PruningSite

object PruningSite {
  /**
   * On the driver while `spark` plans the scan, `bloom.planningParallelism` files at once, or in a
   * Spark job where `spark.bloomparquet.planning.distributed` says ([[DistributedPlanning]]).
   * `table`: the root of the scan's table, where its bloom digest would be (`bloom.digest`).
   */
  final case class Planning(spark: SparkSession, table: Option[Path]) extends PruningSite

  /** Inside a task about to read its splits (`bloom.mode=task`, the V1 route): one file at a time. */
  case object InTask extends PruningSite
}
