package io.bloomparquet.sql

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.types.{BooleanType, DataType, NumericType, StringType}

/** The constant arguments of a table function call, read by position with errors naming the function. */
final case class FunctionArgs(function: String, args: Seq[Expression]) {

  def fail(message: String): Nothing = throw new IllegalArgumentException(s"bloomparquet: $function: $message")

  private def value(i: Int, name: String, accepts: DataType => Boolean, what: String): Option[Any] =
    args.lift(i).map { e =>
      if (!e.foldable) fail(s"argument $name must be a constant")
      if (!accepts(e.dataType)) fail(s"argument $name must be $what, got ${e.dataType.simpleString}")
      val v = e.eval()
      if (v == null) fail(s"argument $name must not be NULL")
      v
    }

  def string(i: Int, name: String): String =
    value(i, name, _.isInstanceOf[StringType], "a string").map(_.toString).getOrElse(fail(s"argument $name is missing"))

  def double(i: Int, name: String): Option[Double] =
    value(i, name, _.isInstanceOf[NumericType], "a number").map(v => BigDecimal(v.toString).toDouble)

  def boolean(i: Int, name: String): Option[Boolean] =
    value(i, name, _ == BooleanType, "a boolean").map(_.asInstanceOf[Boolean])

  /** Any non-NULL constant: its type and Catalyst value. */
  def constant(i: Int, name: String): (DataType, Any) = {
    val v = value(i, name, _ => true, "a constant").getOrElse(fail(s"argument $name is missing"))
    (args(i).dataType, v)
  }

  def size: Int = args.size

  /** Fails when more than `n` arguments were given. */
  def noMore(n: Int): Unit = if (args.size > n) fail(s"takes at most $n arguments, got ${args.size}")
}
