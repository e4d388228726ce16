package io.bloomparquet.delta.impl

import io.bloomparquet.delta.{DeltaIntegration, DeltaTableFacts}
import io.bloomparquet.retrofit.TableRetrofitter
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.connector.catalog.Table

/**
 * The Delta Lake integration, registered as the [[DeltaIntegration]] service of this jar. Links no
 * Delta class itself: the core instantiates it once Delta's classes are known to be visible.
 */
final class DeltaLakeIntegration extends DeltaIntegration {
  override def pruning(spark: SparkSession): Rule[LogicalPlan] = DeltaBloomPruning(spark)

  override def retrofitter(spark: SparkSession): TableRetrofitter = new DeltaTableRetrofit(spark)

  override def tableFacts(spark: SparkSession, table: Table): DeltaTableFacts = new DeltaTableFactsOf(spark)(table)
}
