package io.bloomparquet.options

import java.util.Locale

/** Where an option is given. */
sealed abstract class Scope(val name: String) extends Serializable
object Scope {
  /** `spark.read.format("bloomparquet").option(...)`, a table's OPTIONS. */
  case object Read extends Scope("read")
  /** `df.write.format(...).option(...)`, a table's OPTIONS. */
  case object Write extends Scope("write")
  /** The arguments of `retrofit` (Python, CLI, [[io.bloomparquet.retrofit.RetrofitJob]]). */
  case object Retrofit extends Scope("retrofit")
  /** A Spark conf (`--conf`, the session builder), read once per JVM. */
  case object Session extends Scope("session")
  /** A session conf the SQL extension reads whenever it optimizes a query (`spark.conf.set`, `SET`). */
  case object Sql extends Scope("sql")
  /** A Delta Lake table's property (`TBLPROPERTIES`), which every writer of the table honours. */
  case object DeltaTable extends Scope("deltaTable")
  val all: Seq[Scope] = Seq(Read, Write, Retrofit, Session, Sql, DeltaTable)
}

/**
 * A key that used to name an option: still accepted with a warning. Its value is
 * checked as `kind` and becomes the option's value through `toOption`.
 */
final case class DeprecatedKey(key: String, kind: OptionKind[_], note: String)(val toOption: String => String)

/**
 * One option: its key (Spark's style, dot-separated lowerCamelCase; matched
 * without case), what it accepts, its default and where it is given. A key
 * ending in `<column>` is a prefix: `bloom.fpp.<column>` matches `bloom.fpp.email`.
 *
 * @param defaultDoc the default as docs show it, when [[default]] is None
 */
final case class OptionSpec[T](key: String, kind: OptionKind[T], default: Option[T], scopes: Seq[Scope], doc: String,
    defaultDoc: String = "", deprecatedKeys: Seq[DeprecatedKey] = Nil) {

  val isPerColumn: Boolean = key.endsWith(OptionSpec.ColumnPlaceholder)
  /** For a per-column option, what precedes the column name. */
  val prefix: String = key.stripSuffix(OptionSpec.ColumnPlaceholder)

  /** Whether `lowerKey` (lower case) names this option. */
  def names(lowerKey: String): Boolean =
    if (isPerColumn) lowerKey.startsWith(prefix.toLowerCase(Locale.ROOT)) && lowerKey.length > prefix.length
    else lowerKey == key.toLowerCase(Locale.ROOT)

  def shownDefault: String = default.map(kind.render).getOrElse(defaultDoc)

  /** `text` parsed, or an error naming `givenKey`, the value and what is accepted. */
  def parse(givenKey: String, text: String): T =
    kind.parse(text.trim).getOrElse(OptionSpec.reject(givenKey, text, kind))

  /**
   * The value `conf` gives this (non per-column) key, parsed, else what a deprecated key of it gives,
   * else the default (`spark.conf.getOption`, a SparkEnv).
   */
  def from(conf: String => Option[String]): T =
    conf(key).map(parse(key, _))
      .orElse(deprecatedKeys.view.flatMap(d =>
          conf(d.key).map { text =>
            d.kind.parse(text.trim).getOrElse(OptionSpec.reject(d.key, text, d.kind))
            OptionSpec.warnOnce(s"option '${d.key}' is deprecated, use '$key': ${d.note}")
            parse(d.key, d.toOption(text.trim))
          }).headOption)
      .getOrElse(default.get)
}

object OptionSpec {
  val ColumnPlaceholder = "<column>"

  private val log = org.slf4j.LoggerFactory.getLogger(getClass)
  private val warned = java.util.concurrent.ConcurrentHashMap.newKeySet[String]()

  /** Logs `warning` the first time this JVM meets it (a session conf is read by every scan). */
  def warnOnce(warning: String): Unit = if (warned.add(warning)) log.warn(s"bloomparquet: $warning")

  def reject(key: String, text: String, kind: OptionKind[_]): Nothing =
    fail(s"option '$key' = '$text': expected ${kind.allowed}")

  def fail(message: String): Nothing = throw new IllegalArgumentException(s"bloomparquet: $message")
}
