package io.bloomparquet.iceberg

import io.bloomparquet.integration.FormatIntegration
import io.bloomparquet.retrofit.TableRetrofitter
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * What the Apache Iceberg integration gives the core: package `iceberg.impl`
 * (jvm/src/main/scala-iceberg), the only classes compiled against Iceberg's Spark runtime, built by an
 * sbt project of their own for each Spark minor with an Iceberg release and packaged in that minor's
 * jar. The core names none of them.
 */
trait IcebergIntegration {

  /** The rule pruning the files of an Iceberg scan under a filter, at the plan node it is given (no walk below it). */
  def pruning(spark: SparkSession): Rule[LogicalPlan]

  /** Retrofit of a catalog's Iceberg table through Iceberg's `RewriteFiles`. */
  def retrofitter(spark: SparkSession): TableRetrofitter
}

object IcebergIntegration {

  /** This jar's Iceberg integration, or why there is none; `optOut` ends each reason. */
  def load(optOut: String): Either[String, IcebergIntegration] =
    FormatIntegration.load(classOf[IcebergIntegration], "Apache Iceberg", "org.apache.iceberg.spark.source.SparkTable",
      "spark.jars.packages=org.apache.iceberg:iceberg-spark-runtime-<minor>_<scala>:<release>", optOut)
}
