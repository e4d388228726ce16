package io.bloomparquet.options

import java.util.Locale

import org.slf4j.LoggerFactory

/**
 * Checks `bloom.*` options against [[OptionRegistry]] before anything runs.
 * Errors name the option, the value and what it accepts; an unknown key names
 * the closest known one. Reads and writes check the same keys, so one OPTIONS
 * clause serves both. `python/bloomparquet/_options.py` mirrors this.
 */
object OptionValidator {
  private val log = LoggerFactory.getLogger(getClass)
  private val Namespace = "bloom."

  /** Read and write options: a table's OPTIONS clause holds both. */
  val TableScopes: Seq[Scope] = Seq(Scope.Read, Scope.Write)

  def validate(options: Map[String, String], scopes: Seq[Scope] = TableScopes): ValidOptions = {
    val lower = options.map { case (k, v) => k.toLowerCase(Locale.ROOT) -> v }
    val checked = lower.toSeq.filter(_._1.startsWith(Namespace)).map { case (key, text) => check(key, text, scopes) }
    val (deprecated, current) = checked.partition(_._3.isDefined)
    val values = current.map(c => c._1 -> c._2).toMap
    // The current key wins over a deprecated one for the same option.
    val fromDeprecated = deprecated.map(c => c._1 -> c._2).filterNot(c => values.contains(c._1))
    val warnings = deprecated.flatMap(_._3)
    warnings.foreach(w => log.warn(s"bloomparquet: $w"))
    ValidOptions(values ++ fromDeprecated, warnings)
  }

  /** (option key, its text, a deprecation warning) for one given `bloom.*` key. */
  private def check(key: String, text: String, scopes: Seq[Scope]): (String, String, Option[String]) =
    OptionRegistry.all.find(_.names(key)) match {
      case Some(spec) =>
        if (!spec.scopes.exists(scopes.contains))
          OptionSpec.fail(s"option '$key' is a ${spec.scopes.map(_.name).mkString("/")} option, not a " +
            s"${scopes.map(_.name).mkString("/")} option")
        spec.parse(if (spec.isPerColumn) key else spec.key, text)
        (key, text.trim, None)
      case None =>
        val (option, old) = deprecatedKey(key).getOrElse(unknown(key, scopes))
        old.kind.parse(text.trim).getOrElse(OptionSpec.reject(old.key, text, old.kind))
        (option.toLowerCase(Locale.ROOT), old.toOption(text.trim),
          Some(s"option '${old.key}' is deprecated, use '$option': ${old.note}"))
    }

  /** (the option's key, the deprecated key) for a deprecated `key`. */
  private def deprecatedKey(key: String): Option[(String, DeprecatedKey)] =
    OptionRegistry.all.flatMap(s => s.deprecatedKeys.map(s.key -> _)).find(_._2.key.equalsIgnoreCase(key))

  private def unknown(key: String, scopes: Seq[Scope]): Nothing = {
    val known = OptionRegistry.all.filter(_.scopes.exists(scopes.contains))
    val closest = known.minBy(s => distanceTo(key, s))
    OptionSpec.fail(s"unknown option '$key'; did you mean '${closest.key}'? Known options: ${known.map(_.key).mkString(", ")}")
  }

  /** Edit distance to the key, or for a per-column option to its prefix without the column. */
  private def distanceTo(key: String, spec: OptionSpec[_]): Int = {
    val forms = Seq(spec.key) ++ (if (spec.isPerColumn) Seq(spec.prefix.stripSuffix(".")) else Nil)
    forms.map(f => EditDistance(key, f.toLowerCase(Locale.ROOT))).min
  }
}

/** Levenshtein distance: insertions, deletions and substitutions each cost 1. */
private[options] object EditDistance {
  def apply(a: String, b: String): Int = {
    var prev = Array.range(0, b.length + 1)
    for (i <- 1 to a.length) {
      val cur = new Array[Int](b.length + 1)
      cur(0) = i
      for (j <- 1 to b.length)
        cur(j) = math.min(math.min(cur(j - 1), prev(j)) + 1, prev(j - 1) + (if (a(i - 1) == b(j - 1)) 0 else 1))
      prev = cur
    }
    prev(b.length)
  }
}
