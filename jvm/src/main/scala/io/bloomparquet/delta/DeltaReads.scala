package io.bloomparquet.delta

import io.bloomparquet.options.OptionRegistry.DeltaEnabled
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * The session extension's rule for Delta Lake reads (`spark.bloomparquet.delta.enabled`).
 * Delta is optional: the rule that uses its classes is the [[DeltaIntegration]]'s, which this jar
 * holds only where Delta Lake has a release for the jar's Spark minor. Without it, or without
 * Delta's classes where this jar is loaded, a session with the conf on is refused, saying what is
 * missing; with the conf off nothing of Delta is looked for.
 */
object DeltaReads {

  def enabled(spark: SparkSession): Boolean = DeltaEnabled.from(spark.conf.getOption)

  /** The extension's rule: nothing of Delta is looked for until a query runs with the conf on. */
  def rule(spark: SparkSession): Rule[LogicalPlan] = OnDemand(spark)

  final case class OnDemand(spark: SparkSession) extends Rule[LogicalPlan] {
    @transient private lazy val resolved: Rule[LogicalPlan] = resolve(spark)
    override def apply(plan: LogicalPlan): LogicalPlan = if (!enabled(spark)) plan else resolved(plan)
  }

  private def resolve(spark: SparkSession): Rule[LogicalPlan] =
    DeltaIntegration.load(s"set ${DeltaEnabled.key}=false").fold(Refused(spark, _), _.pruning(spark))

  /** With the conf on, every query fails, saying why; with it off the rule does nothing. */
  final case class Refused(spark: SparkSession, why: String) extends Rule[LogicalPlan] {
    override def apply(plan: LogicalPlan): LogicalPlan =
      if (enabled(spark)) throw new IllegalStateException(s"${DeltaEnabled.key}=true is refused: $why") else plan
  }
}
