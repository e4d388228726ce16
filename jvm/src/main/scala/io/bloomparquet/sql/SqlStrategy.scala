package io.bloomparquet.sql

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.SparkStrategy

/** Plans bloomparquet's SQL-function relations. */
object SqlStrategy extends SparkStrategy {
  override def apply(plan: LogicalPlan): Seq[SparkPlan] = plan match {
    case r: RetrofitRelation => RetrofitExec(r) :: Nil
    case r: DigestRelation => DigestExec(r) :: Nil
    case r: DriverTableRelation => DriverTableExec(r) :: Nil
    case _ => Nil
  }
}
