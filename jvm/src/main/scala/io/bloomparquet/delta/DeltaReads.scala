package io.bloomparquet.delta

import io.bloomparquet.compat.CatalystPlans.V1FileRelation
import io.bloomparquet.options.OptionRegistry.DeltaEnabled
import io.bloomparquet.options.OptionSpec
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * The session extension's rule for Delta Lake reads (`spark.bloomparquet.delta.enabled`).
 * Delta is optional: its classes are provided, and this jar holds the rule that uses them
 * (package `impl`, from jvm/src/main/scala-delta) only where Delta Lake has a release for the
 * jar's Spark minor. Without that rule, or without Delta's classes at run time, a session with the
 * conf on is refused, saying what is missing; with the conf off nothing of Delta is looked for.
 *
 * The rule is loaded by [[DeltaImpl]].
 */
object DeltaReads {

  /** The rule compiled against Delta, where this jar's Spark minor has a Delta Lake release. */
  val Impl = "io.bloomparquet.delta.impl.DeltaBloomPruning"

  def enabled(spark: SparkSession): Boolean = DeltaEnabled.from(spark.conf.getOption)

  /** The extension's rule: nothing of Delta is looked for until a query runs with the conf on. */
  def rule(spark: SparkSession): Rule[LogicalPlan] = OnDemand(spark)

  final case class OnDemand(spark: SparkSession) extends Rule[LogicalPlan] {
    // The context loader of the first query with the conf on: the one that sees Delta's packages.
    @transient private lazy val resolved: Rule[LogicalPlan] = resolve(spark)
    override def apply(plan: LogicalPlan): LogicalPlan =
      if (!enabled(spark)) {
        warnIgnoredOptions(plan)
        plan
      } else resolved(plan)
  }

  /**
   * `bloom.*` read options on a Delta read take effect only with the conf on; with it off they would
   * do nothing, silently: a warning (once per option set) says which conf makes them count.
   */
  private def warnIgnoredOptions(plan: LogicalPlan): Unit = plan.foreach {
    case V1FileRelation(rel) if rel.location.getClass.getName.startsWith("org.apache.spark.sql.delta.") =>
      val ignored = rel.options.keys.filter(_.toLowerCase(java.util.Locale.ROOT).startsWith("bloom.")).toSeq.sorted
      if (ignored.nonEmpty) OptionSpec.warnOnce(s"read options ${ignored.mkString(", ")} on a Delta Lake table have no " +
        s"effect unless ${DeltaEnabled.key}=true (Delta Lake reads are pruned only with it on)")
    case _ =>
  }

  private def resolve(spark: SparkSession): Rule[LogicalPlan] =
    DeltaImpl.load[Rule[LogicalPlan]](spark, Impl, s"set ${DeltaEnabled.key}=false").fold(Refused(spark, _), identity)

  /** With the conf on, every query fails, saying why; with it off the rule does nothing. */
  final case class Refused(spark: SparkSession, why: String) extends Rule[LogicalPlan] {
    override def apply(plan: LogicalPlan): LogicalPlan =
      if (enabled(spark)) throw new IllegalStateException(s"${DeltaEnabled.key}=true is refused: $why") else plan
  }
}
