package io.bloomparquet.compat

import org.apache.hadoop.fs.Path

/**
 * Spark keeps a split's path as a URI's text (`SparkPath`); the rest of planning keys files by the
 * text Hadoop's `Path.toString` gives (decoded). Turning one into the other parses a URI, about an
 * eighth of planning a 100,000-file lookup: a text with nothing to decode or normalize is its own
 * `Path.toString`, and only others are parsed.
 */
object EncodedPaths {

  /** `new Path(new URI(encoded)).toString`, for a URI's text as Spark keeps a split's path. */
  def pathText(encoded: String): String = if (plain(encoded)) encoded else new Path(new java.net.URI(encoded)).toString

  /**
   * Whether `encoded` reads back as itself: a scheme, then `//` and a non-empty authority or a
   * path from `/`, only characters no URI escapes or decodes, no empty, `.` or `..` segment
   * (a URI's normalizing would drop them).
   */
  private[compat] def plain(encoded: String): Boolean = {
    val colon = encoded.indexOf(':')
    if (colon <= 0 || !encoded.charAt(0).isLetter) return false
    var i = 0
    while (i < colon) { if (!schemeChar(encoded.charAt(i))) return false; i += 1 }
    val rest = encoded.substring(colon + 1)
    val path =
      if (rest.startsWith("//")) {
        val slash = rest.indexOf('/', 2)
        if (slash < 0 || slash == 2) return false
        rest.substring(slash)
      } else rest
    path.startsWith("/") && !path.endsWith("/") && path.forall(pathChar) &&
    path.split("/", -1).drop(1).forall(s => s.nonEmpty && s != "." && s != "..") &&
    rest.forall(c => pathChar(c) || c == ':')
  }

  private def schemeChar(c: Char): Boolean =
    (c >= 'a' && c <= 'z') ||
      (c >= 'A' && c <= 'Z') ||
      (c >= '0' && c <= '9') ||
      c == '+' || c == '-' || c == '.'

  private def pathChar(c: Char): Boolean =
    (c >= 'a' && c <= 'z') ||
      (c >= 'A' && c <= 'Z') ||
      (c >= '0' && c <= '9') ||
      c == '/' || c == '-' || c == '_' || c == '.' || c == '='
}
