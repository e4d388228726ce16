package io.bloomparquet.options

import scala.util.matching.Regex

/**
 * The registry rendered for the outside: the JSON Python validates with
 * (`python/bloomparquet/_options.json`) and the options tables of
 * the docs pages under docs/. `bin/gen-options` writes both; OptionFilesSuite fails
 * when the committed ones differ.
 */
object OptionDocs {

  def json: String = OptionRegistry.all.map(optionJson).mkString("{\"options\": [\n  ", ",\n  ", "\n]}\n")

  private def optionJson(spec: OptionSpec[_]): String = {
    val deprecated = spec.deprecatedKeys.map(d =>
      s"""{"key": ${Json.string(d.key)}, "kind": ${d.kind.json}, "allowed": ${Json.string(d.kind.allowed)}, """ +
        s""""note": ${Json.string(d.note)}}""")
    s"""{"key": ${Json.string(spec.key)}, "kind": ${spec.kind.json}, "allowed": ${Json.string(spec.kind.allowed)}, """ +
      s""""default": ${Json.string(spec.shownDefault)}, "scopes": [${spec.scopes.map(s => Json.string(s.name)).mkString(", ")}], """ +
      s""""doc": ${Json.string(spec.doc)}, "deprecatedKeys": [${deprecated.mkString(", ")}]}"""
  }

  /** The Markdown table of the options of `scope`. */
  def table(scope: Scope): String = {
    val rows = OptionRegistry.inScope(scope).map { spec =>
      val deprecated = spec.deprecatedKeys.map(d => s" Deprecated key: `${d.key}` (${d.note}).").mkString
      val default = if (spec.default.isDefined) s"`${spec.shownDefault}`" else spec.shownDefault
      s"| `${spec.key}` | $default | ${spec.kind.allowed} | ${spec.doc}.$deprecated |"
    }
    ("| key | default | accepts | meaning |" +: "|---|---|---|---|" +: rows).mkString("\n")
  }

  private val Block: Regex = """(?s)(<!-- options:(\w+):begin -->\n).*?(<!-- options:\2:end -->)""".r

  /** `markdown` with the table between each `<!-- options:<scope>:begin/end -->` pair regenerated. */
  def updateTables(markdown: String): String = Block.replaceAllIn(markdown,
    m => {
      val scope = Scope.all.find(_.name == m.group(2))
        .getOrElse(throw new IllegalArgumentException(s"no option scope '${m.group(2)}'; scopes: ${Scope.all.map(_.name).mkString(", ")}"))
      Regex.quoteReplacement(m.group(1) + table(scope) + "\n" + m.group(3))
    })
}
