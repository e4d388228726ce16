package io.bloomparquet.options

import java.util.Locale

/**
 * What values an option accepts and how its text parses. The Python mirror
 * (`python/bloomparquet/_options.py`) implements the same rules from [[json]],
 * so both sides accept exactly the same strings.
 */
sealed trait OptionKind[T] {
  /** The value of `text` (already trimmed), or None if the option does not accept it. */
  def parse(text: String): Option[T]
  /** The canonical text of `value`, which [[parse]] reads back. */
  def render(value: T): String = value.toString
  /** What is accepted, as errors and docs say it. */
  def allowed: String
  /** This kind as a JSON object, for the Python mirror. */
  def json: String
}

object OptionKind {

  case object Bool extends OptionKind[Boolean] {
    def parse(text: String): Option[Boolean] = text.toLowerCase(Locale.ROOT) match {
      case "true" => Some(true)
      case "false" => Some(false)
      case _ => None
    }
    def allowed = "true or false"
    def json = """{"type": "bool"}"""
  }

  /** A whole number in [min, max]; `_` may group digits (`1_000`). */
  final case class IntRange(min: Long, max: Long) extends OptionKind[Long] {
    private val Digits = "[+-]?[0-9]+".r
    def parse(text: String): Option[Long] = text.replace("_", "") match {
      case s @ Digits() => scala.util.Try(s.toLong).toOption.filter(n => n >= min && n <= max)
      case _ => None
    }
    def allowed: String = if (max == Long.MaxValue) s"an integer >= $min" else s"an integer from $min to $max"
    def json = s"""{"type": "int", "min": $min, "max": $max}"""
  }

  /** A probability strictly between 0 and 1, in plain decimal or exponent notation. */
  case object Probability extends OptionKind[Double] {
    private val Decimal = """[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?""".r
    def parse(text: String): Option[Double] = text match {
      case Decimal(_*) => scala.util.Try(text.toDouble).toOption.filter(p => p > 0.0 && p < 1.0)
      case _ => None
    }
    def allowed = "a probability strictly between 0 and 1, e.g. 0.01"
    def json = """{"type": "probability"}"""
  }

  /** One of `values`, named by `name` and matched without case. */
  final class OneOf[T](val values: Seq[T], name: T => String) extends OptionKind[T] {
    def parse(text: String): Option[T] = values.find(v => name(v).equalsIgnoreCase(text))
    override def render(value: T): String = name(value)
    def allowed: String = s"one of ${values.map(name).mkString(", ")}"
    def json: String = s"""{"type": "enum", "values": [${values.map(v => Json.string(name(v))).mkString(", ")}]}"""
  }

  /** Comma-separated column names; [[io.bloomparquet.write.BloomWriteOptions.resolve]] checks them against the schema. */
  case object ColumnList extends OptionKind[Seq[String]] {
    def parse(text: String): Option[Seq[String]] = Some(text.split(",").toSeq.map(_.trim).filter(_.nonEmpty))
    override def render(value: Seq[String]): String = value.mkString(",")
    def allowed = "comma-separated column names; a.b is field b of struct a, backticks quote dots"
    def json = """{"type": "columns"}"""
  }
}

/** Just enough JSON writing for the registry's rendering. */
private[options] object Json {
  def string(s: String): String = s.flatMap {
    case '"' => "\\\""
    case '\\' => "\\\\"
    case '\n' => "\\n"
    case c if c < ' ' => f"\\u${c.toInt}%04x"
    case c => c.toString
  }.mkString("\"", "", "\"")
}
