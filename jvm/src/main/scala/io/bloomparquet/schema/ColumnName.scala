package io.bloomparquet.schema

import scala.util.Try

import org.apache.spark.sql.catalyst.util.AttributeNameParser

/**
 * A user-given column name as a name path, by Spark's rules for column names
 * (those of `df.col`): `a.b` is field `b` of struct `a`; backticks quote a part
 * holding dots, spaces or backticks, a backtick inside one doubled
 * (`` `x``y` `` is `x`y`).
 */
object ColumnName {
  /** The name path, or why `name` does not parse. */
  def parse(name: String): Either[String, Seq[String]] =
    Try(AttributeNameParser.parseAttributeName(name)).toEither.left.map(_.getMessage)

  /** The name path; a name that does not parse (an unbalanced backtick) is taken as one top-level name. */
  def parts(name: String): Seq[String] = parse(name).getOrElse(Seq(name))
}
