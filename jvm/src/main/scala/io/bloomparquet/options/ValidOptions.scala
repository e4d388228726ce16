package io.bloomparquet.options

import java.util.Locale

/**
 * Options checked by [[OptionValidator]]: each registered option given, by its
 * lower-case key (deprecated keys already turned into their option), and the
 * warnings the check gave.
 */
final case class ValidOptions(values: Map[String, String], warnings: Seq[String]) {

  /** The option's value, if given. */
  def find[T](spec: OptionSpec[T]): Option[T] = values.get(spec.key.toLowerCase(Locale.ROOT)).map(spec.parse(spec.key, _))

  /** The option's value, or its default. */
  def get[T](spec: OptionSpec[T]): T =
    find(spec).orElse(spec.default).getOrElse(throw new IllegalStateException(s"${spec.key} has no default"))

  /** A per-column option as given: (key, column as written after the prefix, value). */
  def perColumn[T](spec: OptionSpec[T]): Seq[(String, String, T)] = values.toSeq.sortBy(_._1).collect {
    case (key, text) if spec.names(key) => (key, key.substring(spec.prefix.length), spec.parse(key, text))
  }
}
