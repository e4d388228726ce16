package io.bloomparquet.options

import java.util.Locale

/**
 * Session-wide defaults of the read options: `spark.bloomparquet.read.<option>` (the option's key
 * without `bloom.`, e.g. `spark.bloomparquet.read.sparkPushdown`) applies to every scan of the
 * session that does not give the option itself. The one way to set a read option where a read
 * carries no options of ours: a Delta table's scan (Delta's relation keeps none of its reader's
 * options), an opted-in `parquet` relation or a catalog table read without `.option(...)`.
 */
object SessionReadDefaults {
  val Prefix = "spark.bloomparquet.read."

  /** The read options a session may default (per-column ones have no session form). */
  lazy val specs: Seq[OptionSpec[_]] = OptionRegistry.all.filter(s => s.scopes.contains(Scope.Read) && !s.isPerColumn)

  /** The session key of read option `spec`. */
  def key(spec: OptionSpec[_]): String = Prefix + spec.key.stripPrefix("bloom.")

  /**
   * `options` with each read option it gives under no name of its own taken from the session's
   * `set`; a session value that is not valid fails here, naming the session key.
   */
  def under(options: Map[String, String], set: String => Option[String]): Map[String, String] = {
    val givenKeys = options.keys.map(_.toLowerCase(Locale.ROOT)).toSeq
    val defaults = specs.flatMap { spec =>
      val named = givenKeys.exists(k => spec.names(k) || spec.deprecatedKeys.exists(_.key.toLowerCase(Locale.ROOT) == k))
      if (named) None
      else set(key(spec)).map { text =>
        spec.parse(key(spec), text)
        spec.key -> text
      }
    }
    options ++ defaults
  }
}
