package io.bloomparquet.iceberg.impl

import scala.jdk.CollectionConverters._

import io.bloomparquet.pruning.BloomPredicate
import org.apache.iceberg.{MetadataColumns, Schema}
import org.apache.iceberg.types.Types.NestedField

/**
 * A predicate on an Iceberg scan's columns as its data files hold them: by field id, level by level.
 * Iceberg's reader matches a file's columns by id, so a renamed column is still found in the files
 * written before the rename, a column added later is missing from older files (read as null: those
 * are kept), and a dropped then re-added one is another column. Names resolve against the scan's
 * projection (the schema of the snapshot read) under the session's case rule, as Spark resolved them.
 * Metadata columns (`_file`, `_pos`, ...) are not in the files: a probe of one, or of a column the
 * projection does not hold, is dropped (in an AND the rest still holds; an OR needs every branch).
 */
private[impl] final class FieldIdColumns(projection: Schema, caseSensitive: Boolean) {

  def apply(p: BloomPredicate): Option[BloomPredicate] =
    BloomPredicate.mapColumns(p)(c => ids(c.path).map(found => c.copy(fieldIds = found)))

  /** The field ids along `path`, walking structs; None for a column the projection does not hold. */
  def ids(path: Seq[String]): Option[Seq[Int]] = {
    def walk(fields: Seq[NestedField], rest: Seq[String]): Option[Seq[Int]] = {
      val exact = fields.filter(_.name == rest.head)
      val found = if (exact.nonEmpty || caseSensitive) exact else fields.filter(_.name.equalsIgnoreCase(rest.head))
      found match {
        case Seq(f) if MetadataColumns.isMetadataColumn(f.fieldId) => None
        case Seq(f) if rest.size == 1 => Some(Seq(f.fieldId))
        case Seq(f) if f.`type`.isStructType => walk(f.`type`.asStructType.fields.asScala.toSeq, rest.tail).map(f.fieldId +: _)
        case _ => None // absent, not a struct, or ambiguous without case
      }
    }
    if (path.isEmpty) None else walk(projection.columns.asScala.toSeq, path)
  }
}
