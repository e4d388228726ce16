package io.bloomparquet.schema

/**
 * Why a name path did not resolve. `at`: the parts resolved before the
 * failure, as the schema spells them (empty when the first part failed).
 */
sealed trait Unresolved { def at: Seq[String] }

/** A failure of the walk through named fields, in any schema. */
sealed trait NotFound extends Unresolved

object Unresolved {
  /** No field under `at` has the next name; `fields` are those there. */
  final case class Missing(at: Seq[String], fields: Seq[String]) extends NotFound
  /** Without case, several fields under `at` have the next name. */
  final case class Ambiguous(at: Seq[String], matches: Seq[String]) extends NotFound
  /** The path goes on inside `at`, which has no fields (a leaf, an array or a map). */
  final case class NotAStruct(at: Seq[String]) extends NotFound
  /** Parquet: the path `at` names a group, not a leaf column. */
  final case class NotALeaf(at: Seq[String]) extends Unresolved
  /** Parquet: the leaf `at` is inside a repeated field (an array or a map): not one value per row. */
  final case class Repeated(at: Seq[String]) extends Unresolved
}
