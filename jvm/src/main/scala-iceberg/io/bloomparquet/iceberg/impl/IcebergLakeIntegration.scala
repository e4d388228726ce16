package io.bloomparquet.iceberg.impl

import io.bloomparquet.iceberg.IcebergIntegration
import io.bloomparquet.retrofit.TableRetrofitter
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * The Apache Iceberg integration, registered as the [[IcebergIntegration]] service of this jar. Links no
 * Iceberg class itself: the core instantiates it once Iceberg's classes are known to be visible.
 */
final class IcebergLakeIntegration extends IcebergIntegration {
  override def pruning(spark: SparkSession): Rule[LogicalPlan] = IcebergBloomPruning(spark)
  override def retrofitter(spark: SparkSession): TableRetrofitter = new IcebergTableRetrofit(spark)
}
