package io.bloomparquet.options

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * Everything a bloomparquet read decides with, resolved once per scan: the `bloom.*` read
 * options (validated against [[OptionRegistry]]) and what the session says. Immutable and
 * serializable: it travels to executors inside reader factories, V1 readers and planning jobs,
 * so every route (plan, task, V1, distributed planning) prunes with the same values.
 *
 * @param bloom the scan's `bloom.*` read options
 * @param caseSensitive `spark.sql.caseSensitive`: how predicates name columns
 * @param gapBytes pruned row groups between two surviving runs are read when they hold at most
 *   this many bytes, rather than the file opened once more: Spark's price of an open,
 *   `spark.sql.files.openCostInBytes` (only where Spark's own reader would read them too:
 *   `spark.SplitPruning.gapBytes`)
 * @param sparkInFilterThreshold `spark.sql.parquet.pushdown.inFilterThreshold`: the most values of
 *   an IN that Spark's own reader probes bloom filters for in tasks (more become a range)
 * @param planningPlace `spark.bloomparquet.planning.distributed`: where plan-time pruning reads
 * @param planningJobSeconds `spark.bloomparquet.planning.jobMillis`, in seconds: what launching a
 *   planning job costs in the choice of where to plan
 * @param fieldIdRead `spark.sql.parquet.fieldId.read.enabled`: Spark matches columns by field id,
 *   which predicates (by name) can't, so nothing is probed
 */
final case class ReadSettings(bloom: BloomReadOptions, caseSensitive: Boolean, gapBytes: Long,
    sparkInFilterThreshold: Int, planningPlace: PlanningPlaceSetting, planningJobSeconds: Double, fieldIdRead: Boolean)

/**
 * What a session's conf says, as a read needs it (the `spark` package reads it from Spark).
 *
 * @param set a key's value if set in the session (`spark.conf.set`, `SET`, or the Spark conf it started with)
 */
final case class SessionReadConf(caseSensitive: Boolean, openCostInBytes: Long, inFilterThreshold: Int,
    fieldIdRead: Boolean, set: String => Option[String])

object ReadSettings {

  /**
   * The settings of a scan with read `options` in a session whose conf is `session` (which gives the
   * options `options` doesn't: [[SessionReadDefaults]]); a bad option fails here.
   */
  def resolve(options: Map[String, String], session: SessionReadConf): ReadSettings = ReadSettings(
    bloom = BloomReadOptions.parse(SessionReadDefaults.under(options, session.set)),
    caseSensitive = session.caseSensitive,
    gapBytes = session.openCostInBytes,
    sparkInFilterThreshold = session.inFilterThreshold,
    planningPlace = OptionRegistry.PlanningDistributed.from(session.set),
    planningJobSeconds = OptionRegistry.PlanningJobMillis.from(session.set) / 1000.0,
    fieldIdRead = session.fieldIdRead)

  def resolve(options: CaseInsensitiveStringMap, session: SessionReadConf): ReadSettings =
    resolve(options.asCaseSensitiveMap.asScala.toMap, session)
}
