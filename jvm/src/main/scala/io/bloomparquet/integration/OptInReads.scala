package io.bloomparquet.integration

import io.bloomparquet.options.OptionSpec
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{SparkPlan, SparkStrategy}

/**
 * A table format's read rule behind its opt-in session conf. The format is optional: the rule that
 * uses its classes is its integration's, which this jar holds only where the format has a release
 * for the jar's Spark minor. Nothing of the format is looked for until a query runs with the conf
 * on; without the integration, or without the format's classes where this jar is loaded, every
 * such query is refused, saying what is missing.
 *
 * @param optIn the opt-in (`spark.bloomparquet.delta.enabled`, ...), read per query
 * @param load the integration's rule for a session, or why there is none (given how to opt out)
 */
class OptInReads(optIn: OptionSpec[Boolean], load: String => Either[String, SparkSession => Rule[LogicalPlan]]) {

  def enabled(spark: SparkSession): Boolean = optIn.from(spark.conf.getOption)

  /** The extension's rule for `spark`. */
  def rule(spark: SparkSession): Rule[LogicalPlan] = new OnDemand(spark)

  /**
   * The rule as a planner strategy that plans nothing itself: it runs on each node Spark plans, after
   * every optimizer batch (a V2 scan is built by then), and leaves the planning to Spark's strategies.
   */
  def strategy(spark: SparkSession): SparkStrategy = new SparkStrategy {
    private val onDemand = rule(spark)
    override def apply(plan: LogicalPlan): Seq[SparkPlan] = { onDemand(plan); Nil }
  }

  private final class OnDemand(spark: SparkSession) extends Rule[LogicalPlan] {
    @transient private lazy val resolved: Rule[LogicalPlan] =
      load(s"set ${optIn.key}=false").fold(new Refused(spark, _), _(spark))
    override def apply(plan: LogicalPlan): LogicalPlan = if (!enabled(spark)) plan else resolved(plan)
  }

  /** With the conf on, every query fails, saying why; with it off the rule does nothing. */
  private final class Refused(spark: SparkSession, why: String) extends Rule[LogicalPlan] {
    override def apply(plan: LogicalPlan): LogicalPlan =
      if (enabled(spark)) throw new IllegalStateException(s"${optIn.key}=true is refused: $why") else plan
  }
}
