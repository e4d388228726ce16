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
   * `tasksJudge`: whether the read path's tasks judge a file planning hands them unread
   * (`bloom.digestSurvivors=task`), as [[PlannedReaderFactory]] does.
   */
  final case class Planning(spark: SparkSession, table: Option[Path], tasksJudge: Boolean) extends PruningSite

  /**
   * Inside a task about to read its splits, `filesAtOnce` of them read at once: one at a time where
   * every file is judged in its task (`bloom.mode=task`, the V1 route: a task's core is its
   * parallelism); files planning left to their tasks as many at once as planning would have read.
   */
  final case class InTask(filesAtOnce: Int) extends PruningSite

  /** Inside a task, its files judged one after the other. */
  val InTaskOneAtATime: InTask = InTask(1)
}
