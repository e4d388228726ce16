package io.bloomparquet.spark

import java.util.Locale

import io.bloomparquet.compat.CatalystPlans.withRelationOption
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * What the session extension's rules tell a bloomparquet scan about where it sits in the query.
 * `keySetNote`: why a key-set lookup over it got no runtime filter (`sql.KeySetSizeNote`), shown in
 * its metadata. `inSubquery`: it is in a subquery's own plan (`sql.SubqueryScans`), so it declares no
 * runtime-filter columns. A logical relation reaches its table's scan builder only through its options:
 * the notes travel there under keys only this object writes and reads, outside `bloom.*` (no user
 * option), and are taken out before Spark's reader sees the options.
 */
final case class PlanNotes(keySetNote: Option[String], inSubquery: Boolean)

object PlanNotes {
  private val KeySetNoteKey = "bloomparquet.keySetNote"
  private val InSubqueryKey = "bloomparquet.inSubquery"
  private val keys = Set(KeySetNoteKey, InSubqueryKey).map(_.toLowerCase(Locale.ROOT))

  /** The notes among a relation's options (a scan builder's). */
  def of(options: CaseInsensitiveStringMap): PlanNotes =
    PlanNotes(Option(options.get(KeySetNoteKey)), inSubquery = options.containsKey(InSubqueryKey))

  /** `options` without the notes: what Spark's reader gets, so a noted scan still equals (and reuses) its twin. */
  def withoutNotes(options: Map[String, String]): Map[String, String] =
    options.filter { case (k, _) => !keys(k.toLowerCase(Locale.ROOT)) }

  /** `relation` (a V2 relation) noted as in a subquery's own plan; None for any other plan or one noted already. */
  def inSubquery(relation: LogicalPlan): Option[LogicalPlan] = withRelationOption(relation, InSubqueryKey, "true")

  /** `relation` (a V2 relation) noted with why its key-set lookup was not pruned; None for any other plan. */
  def keySetNote(relation: LogicalPlan, why: String): Option[LogicalPlan] = withRelationOption(relation, KeySetNoteKey, why)
}
