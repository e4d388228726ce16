package io.bloomparquet.retrofit

/**
 * A column to retrofit, as a table names it: by its (dotted) name in each file, or, for tables whose
 * readers match a file's columns by field id (Iceberg's), by the ids along its path, whatever the file
 * calls it. `name` is how results and errors show it.
 */
sealed trait RetrofitColumn extends Serializable {
  def name: String
}

object RetrofitColumn {
  final case class Named(name: String) extends RetrofitColumn
  final case class FieldIds(name: String, ids: Seq[Int]) extends RetrofitColumn

  def named(names: Seq[String]): Seq[RetrofitColumn] = names.map(Named(_))
}
