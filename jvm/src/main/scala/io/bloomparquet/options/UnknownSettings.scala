package io.bloomparquet.options

import java.util.Locale
import java.util.concurrent.ConcurrentHashMap

import org.slf4j.LoggerFactory

/**
 * `spark.bloomparquet.*` settings of a session that no release of this registry knows: a typo, or a
 * feature this release lacks. Spark accepts any key, so such a setting would do nothing in silence;
 * each is warned about once per JVM, with the closest known key.
 */
object UnknownSettings {
  private val log = LoggerFactory.getLogger(getClass)
  /** The prefix of every session setting of ours. */
  val Namespace = "spark.bloomparquet."
  private val warned = ConcurrentHashMap.newKeySet[String]()

  private lazy val current: Seq[String] =
    OptionRegistry.all.map(_.key).filter(_.startsWith(Namespace)) ++ SessionReadDefaults.specs.map(SessionReadDefaults.key)
  private lazy val known: Set[String] = (current ++ OptionRegistry.all.flatMap(_.deprecatedKeys.map(_.key)))
    .map(_.toLowerCase(Locale.ROOT)).toSet

  /** The warning for each unknown `spark.bloomparquet.*` key among `keys`. */
  def of(keys: Iterable[String]): Seq[String] =
    keys.toSeq.filter(_.toLowerCase(Locale.ROOT).startsWith(Namespace)).sorted.flatMap { key =>
      val lower = key.toLowerCase(Locale.ROOT)
      if (known(lower)) None
      else {
        val closest = current.minBy(k => EditDistance(lower, k.toLowerCase(Locale.ROOT)))
        Some(s"bloomparquet: unknown setting '$key' has no effect; did you mean '$closest'? " +
          s"Known settings: ${current.mkString(", ")}")
      }
    }

  /** Logs each of [[of]]'s warnings the first time this JVM sees its key; returns those logged now. */
  def warnOnce(keys: Iterable[String]): Seq[String] =
    of(keys).filter(w => warned.add(w.split("'")(1))).map { w => log.warn(w); w }
}
