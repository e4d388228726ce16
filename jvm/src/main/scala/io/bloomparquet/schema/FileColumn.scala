package io.bloomparquet.schema

import org.apache.parquet.schema.MessageType

/**
 * A column as a table names it, to be found in each of its files: by its path of names, or, for tables
 * whose readers match a file's columns by field id (Iceberg's), by the ids along its path, whatever
 * the file calls it. `name` is how results and errors show it.
 */
sealed trait FileColumn extends Serializable {
  def name: String

  /** The leaf this column is in a file of `schema`. */
  def leaf(schema: MessageType, caseSensitive: Boolean): Either[Unresolved, ParquetLeaf]
}

object FileColumn {

  /** By the names along its path. */
  final case class Named(name: String, path: Seq[String]) extends FileColumn {
    def leaf(schema: MessageType, caseSensitive: Boolean): Either[Unresolved, ParquetLeaf] =
      ColumnResolver.parquet(schema, path, caseSensitive)
  }

  /** By the field ids along its path; names do not matter. */
  final case class FieldIds(name: String, ids: Seq[Int]) extends FileColumn {
    def leaf(schema: MessageType, caseSensitive: Boolean): Either[Unresolved, ParquetLeaf] =
      ColumnResolver.parquetByIds(schema, ids)
  }

  /** A column a user names, dotted for a struct's field (a name that does not parse is one top-level name). */
  def dotted(name: String): FileColumn = Named(name, ColumnName.parts(name))

  /** A top-level column, a Spark attribute's name taken whole (dots and all). */
  def topLevel(name: String): FileColumn = Named(name, Seq(name))
}
