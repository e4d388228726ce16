package io.bloomparquet.delta

import io.bloomparquet.pruning.BloomPredicate
import org.apache.spark.sql.types.{DataType, StructField, StructType}

/**
 * A predicate on a Delta table's data columns as its Parquet files name them. With column mapping
 * (`name` or `id` mode: `mapped`) a column is stored under its physical name, kept in the field's
 * metadata across renames (files from before mapping was enabled keep the original name, which
 * Delta records as the physical one); without it the logical name is the physical one, and
 * physical names some old writers left in the metadata are ignored, as Delta ignores them. In
 * `id` mode (`byId`) Delta's reader matches columns by field id: a probe also carries the ids, and
 * a file whose column of that name has other ids is not probed. A probe of a column the table's
 * schema does not hold is dropped (in an AND the rest still holds; an OR needs every branch).
 * Partition columns never reach here: they are not in the files.
 */
final class PhysicalColumns(tableSchema: StructType, mapped: Boolean, byId: Boolean, caseSensitive: Boolean) {

  def apply(p: BloomPredicate): Option[BloomPredicate] = BloomPredicate.mapColumns(p) { c =>
    physical(c.path).map(fields => c.copy(path = fields.map(name), fieldIds = if (byId) fields.map(id) else Nil))
  }

  /** The physical path of the field at `logical` and its type; None for a column the schema does not hold. */
  def leaf(logical: Seq[String]): Option[(Seq[String], DataType)] =
    physical(logical).map(fields => (fields.map(name), fields.last.dataType))

  private def same(a: String, b: String): Boolean = if (caseSensitive) a == b else a.equalsIgnoreCase(b)

  /** The fields along a logical path, walking structs; None for a column the schema does not hold. */
  private def physical(path: Seq[String]): Option[Seq[StructField]] = if (path.isEmpty) None else walk(tableSchema, path)

  private def id(field: StructField): Int = field.metadata.getLong(PhysicalColumns.IdKey).toInt

  private def name(field: StructField): String =
    if (mapped && field.metadata.contains(PhysicalColumns.PhysicalNameKey)) field.metadata.getString(PhysicalColumns.PhysicalNameKey)
    else field.name

  private def walk(struct: StructType, path: Seq[String]): Option[Seq[StructField]] = {
    val exact = struct.fields.filter(_.name == path.head)
    val found = if (exact.nonEmpty) exact else struct.fields.filter(f => same(f.name, path.head))
    found match {
      case Array(field) if byId && !field.metadata.contains(PhysicalColumns.IdKey) => None
      case Array(field) if path.size == 1 => Some(Seq(field))
      case Array(field) => field.dataType match {
          case s: StructType => walk(s, path.tail).map(field +: _)
          case _ => None
        }
      case _ => None // absent, or ambiguous without case
    }
  }
}

object PhysicalColumns {
  /** Where Delta's column mapping keeps a field's physical name (`DeltaColumnMapping`'s key). */
  val PhysicalNameKey = "delta.columnMapping.physicalName"
  /** And its field id (`id` mode matches by it). */
  val IdKey = "delta.columnMapping.id"
}
