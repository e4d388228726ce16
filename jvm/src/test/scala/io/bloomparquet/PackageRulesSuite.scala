package io.bloomparquet

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

/**
 * The dependency rule of docs/architecture.md ("Dependency rule"), checked on every main source
 * file (common, each shim folder, Java): a package imports only the packages its row names, the
 * rule has no cycle, and only `compat` names the Spark internals whose shape differs between
 * Spark versions. Reads source text (comments and string literals left out), not classes.
 */
class PackageRulesSuite extends munit.FunSuite {
  import PackageRules._

  private lazy val root: Path = Iterator.iterate(Paths.get("").toAbsolutePath)(_.getParent).takeWhile(_ != null)
    .find(d => Files.exists(d.resolve("pyproject.toml"))).getOrElse(sys.error("no pyproject.toml above the working directory"))
  private lazy val rule: Map[String, Set[String]] =
    allowedImports(new String(Files.readAllBytes(root.resolve("docs/architecture.md")), UTF_8))
  private lazy val sources: Seq[(Path, String)] = {
    val main = root.resolve("jvm/src/main")
    Files.walk(main).iterator.asScala.filter(p => p.toString.endsWith(".scala") || p.toString.endsWith(".java"))
      .map(p => main.relativize(p) -> new String(Files.readAllBytes(p), UTF_8)).toSeq.sortBy(_._1.toString)
  }

  test("the rule names every package, only known ones, and has no cycle") {
    assert(rule.size >= 10, s"the dependency table of docs/architecture.md was not found: $rule")
    val declared = sources.map { case (_, text) => packageOf(text) }.toSet
    assertEquals(declared -- rule.keySet, Set.empty[String], "packages the rule does not name")
    assertEquals(rule.values.flatten.toSet -- rule.keySet, Set.empty[String], "the rule allows unknown packages")
    assertEquals(cycle(rule), None)
  }

  test("every source file imports only what its package may (shim folders included)") {
    assert(sources.exists(_._1.startsWith("scala-spark-4.0")), "no shim folder read")
    val violations = for {
      (path, text) <- sources
      from = packageOf(text)
      to <- ourReferences(text) if to != from && !rule.getOrElse(from, Set.empty)(to)
    } yield s"$path: $from imports $to"
    assertEquals(violations, Nil)
  }

  test("only compat names Spark internals whose shape differs between Spark versions") {
    val violations = for {
      (path, text) <- sources if packageOf(text) != "compat"
      name <- seamOnlyReferences(text)
    } yield s"$path: $name"
    assertEquals(violations, Nil)
  }

  test("the checks see code, not comments or strings") {
    val text =
      """package io.bloomparquet.pruning
        |// io.bloomparquet.spark.X and LogicalRelation in a comment
        |/* io.bloomparquet.sql.Y, DataSourceV2Relation */
        |import io.bloomparquet.planning.FileKey
        |object A { val s = "io.bloomparquet.write.Z LogicalRelation"; val c = '"'
        |  def f(p: org.apache.spark.sql.execution.datasources.LogicalRelation) = io.bloomparquet.retrofit.RetrofitJob
        |  val q = org.apache.spark.sql.classic.Dataset }
        |""".stripMargin
    assertEquals(packageOf(text), "pruning")
    assertEquals(ourReferences(text), Set("planning", "retrofit"))
    assertEquals(seamOnlyReferences(text), Set("LogicalRelation", "org.apache.spark.sql.classic"))
    assertEquals(packageOf("package org.apache.spark.bloomparquet\n"), "compat")
    assertEquals(packageOf("package org.apache.spark.sql.bloomparquet\n"), "compat")
    assertEquals(packageOf("package io.bloomparquet;\n"), "io.bloomparquet")
    assertEquals(cycle(Map("a" -> Set("b"), "b" -> Set("c"), "c" -> Set("a"))).map(_.toSet), Some(Set("a", "b", "c")))
    val table =
      """## Dependency rule
        || package | may import |
        ||---|---|
        || `io.bloomparquet` | `sql` |
        || `kernel` | nothing of ours |
        |
        |## Next
        || `other` | `x` |
        |""".stripMargin
    assertEquals(allowedImports(table), Map("io.bloomparquet" -> Set("sql"), "kernel" -> Set.empty[String]))
  }
}

/** Reading packages, imports and the rule from source text. */
object PackageRules {

  /**
   * Spark internals common code must not name (as types, extractors, constructors or packages):
   * their fields, constructors or presence differ between Spark 3.5, 4.0 and 4.3, so they are
   * reached through `compat` only. docs/architecture.md, "Dependency rule", lists the same.
   */
  val SeamOnlyNames: Set[String] = Set(
    "LogicalRelation", "HadoopFsRelation", "CatalogFileIndex", "DataSourceV2Relation", "Join", "HintInfo", "BROADCAST",
    "Subquery", "InSubquery", "ListQuery", "DynamicPruning", "DynamicPruningSubquery", "LogicalRDD", "InMemoryRelation",
    "CatalystTypeConverters", "DataTypeUtils", "AdaptiveSparkPlanHelper", "BatchScanExec", "FileSourceScanExec",
    "QueryExecution", "VariantType", "SQLConf", "sessionState", "ParallelCollectionRDD", "ParallelCollectionPartition",
    "SizeEstimator")
  val SeamOnlyPackages: Seq[String] = Seq("org.apache.spark.sql.classic", "org.apache.spark.sql.internal",
    "org.apache.spark.sql.execution.adaptive", "org.apache.spark.sql.execution.columnar")

  /** The package's row in the rule: `io.bloomparquet.x.y` is `x`; Spark's packages hold compat's private[spark] and protected[sql] access. */
  def packageOf(text: String): String = {
    val Decl = """(?m)^\s*package\s+([\w.]+)""".r
    Decl.findFirstMatchIn(text).map(_.group(1)).getOrElse("") match {
      case "org.apache.spark.bloomparquet" | "org.apache.spark.sql.bloomparquet" => "compat"
      case "io.bloomparquet" => "io.bloomparquet"
      case p if p.startsWith("io.bloomparquet.") => p.stripPrefix("io.bloomparquet.").takeWhile(_ != '.')
      case other => other
    }
  }

  /** Our packages `text` names in code (imports and qualified names). */
  def ourReferences(text: String): Set[String] = {
    val code = codeOnly(text)
    val Ours = """\bio\.bloomparquet\.([a-z]\w*)""".r
    val AsIs = """\bio\.bloomparquet\.([A-Z]\w*)""".r
    val body = code.linesIterator.filterNot(_.trim.startsWith("package ")).mkString("\n")
    Ours.findAllMatchIn(body).map(_.group(1)).toSet ++
      AsIs.findAllMatchIn(body).map(_ => "io.bloomparquet").toSet ++
      (if ("""\borg\.apache\.spark\.bloomparquet\b""".r.findFirstIn(body).isDefined) Set("compat") else Set.empty)
  }

  /** The seam-only Spark names and packages `text` names in code. */
  def seamOnlyReferences(text: String): Set[String] = {
    val code = codeOnly(text)
    val words = """\b[A-Za-z_]\w*\b""".r.findAllIn(code).toSet
    (words intersect SeamOnlyNames) ++ SeamOnlyPackages.filter(p => code.contains(p)).toSet
  }

  /**
   * The rule: in the "Dependency rule" section, each table row `| `pkg` | `a`, `b` |` (or
   * "nothing of ours"): what `pkg` may import of ours.
   */
  def allowedImports(markdown: String): Map[String, Set[String]] = {
    val section = markdown.linesIterator.dropWhile(l => !l.startsWith("## Dependency rule")).drop(1)
      .takeWhile(l => !l.startsWith("## ")).toSeq
    val Tick = "`([^`]+)`".r
    section.filter(_.startsWith("| `")).map { row =>
      val cells = row.split('|').map(_.trim).filter(_.nonEmpty)
      val pkg = Tick.findFirstMatchIn(cells(0)).get.group(1)
      pkg -> Tick.findAllMatchIn(cells.lift(1).getOrElse("")).map(_.group(1)).toSet
    }.toMap
  }

  /** A cycle in `graph`, if any (as the packages on it). */
  def cycle(graph: Map[String, Set[String]]): Option[Seq[String]] = {
    def visit(node: String, path: List[String], done: Set[String]): Either[Seq[String], Set[String]] =
      if (path.contains(node)) Left((node :: path.takeWhile(_ != node)).reverse)
      else if (done(node)) Right(done)
      else graph.getOrElse(node, Set.empty).foldLeft[Either[Seq[String], Set[String]]](Right(done)) {
        case (Right(d), next) => visit(next, node :: path, d)
        case (found, _) => found
      }.map(_ + node)
    graph.keys.toSeq.sorted.foldLeft[Either[Seq[String], Set[String]]](Right(Set.empty)) {
      case (Right(done), node) => visit(node, Nil, done)
      case (found, _) => found
    }.left.toOption
  }

  /** `text` with comments, string and character literals blanked (line structure kept). */
  def codeOnly(text: String): String = {
    val out = new StringBuilder
    var i = 0
    def at(s: String) = text.startsWith(s, i)
    def skipTo(end: String): Unit = {
      val j = text.indexOf(end, i)
      val stop = if (j < 0) text.length else j + end.length
      out ++= text.substring(i, stop).map(c => if (c == '\n') '\n' else ' ')
      i = stop
    }
    val Char = """'(\\u[0-9a-fA-F]{4}|\\.|[^'\\\n])'""".r
    while (i < text.length) {
      if (at("//")) skipTo("\n")
      else if (at("/*")) skipTo("*/")
      else if (at("\"\"\"")) { out ++= "   "; i += 3; skipTo("\"\"\"") }
      else if (at("\"")) {
        out += ' '; i += 1
        while (i < text.length && text.charAt(i) != '"' && text.charAt(i) != '\n') {
          if (text.charAt(i) == '\\') { out += ' '; i += 1 }
          if (i < text.length) { out += ' '; i += 1 }
        }
        if (i < text.length) { out += ' '; i += 1 }
      } else Char.findPrefixMatchOf(text.substring(i, math.min(text.length, i + 8))) match {
        case Some(m) => out ++= " " * m.end; i += m.end
        case None => out += text.charAt(i); i += 1
      }
    }
    out.toString
  }
}
