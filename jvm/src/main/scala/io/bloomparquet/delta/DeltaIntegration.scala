package io.bloomparquet.delta

import io.bloomparquet.integration.FormatIntegration
import io.bloomparquet.retrofit.TableRetrofitter
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.connector.catalog.Table

/**
 * What the Delta Lake integration gives the core: package `delta.impl` (jvm/src/main/scala-delta), the
 * only classes compiled against Delta, built by an sbt project of their own for each Spark minor with a
 * Delta release and packaged in that minor's jar. The core names none of them.
 */
trait DeltaIntegration {

  /** The rule pruning Delta scans' files and row groups, after Delta's own skipping. */
  def pruning(spark: SparkSession): Rule[LogicalPlan]

  /** Writes the new files of a Delta table's retrofit and commits them through Delta's transaction. */
  def retrofitter(spark: SparkSession): TableRetrofitter

  /** What the table-property rule needs to know of an existing Delta table. */
  def tableFacts(spark: SparkSession, table: Table): DeltaTableFacts
}

object DeltaIntegration {

  /** This jar's Delta integration, or why there is none; `optOut` ends each reason. */
  def load(optOut: String): Either[String, DeltaIntegration] =
    FormatIntegration.load(classOf[DeltaIntegration], "Delta Lake", "org.apache.spark.sql.delta.files.TahoeFileIndex",
      "spark.jars.packages, or delta-spark's configure_spark_with_delta_pip", optOut)
}
