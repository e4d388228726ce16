package io.bloomparquet.options

/** The committed renderings of the registry are up to date (else run bin/gen-options). */
class OptionFilesSuite extends munit.FunSuite {

  test("python/bloomparquet/_options.json is the registry's rendering") {
    assertEquals(OptionFiles.read(OptionFiles.json), OptionDocs.json, "run bin/gen-options")
  }

  test("the docs pages' option tables are the registry's rendering, one per scope") {
    val pages = OptionFiles.pages.map(OptionFiles.read)
    OptionFiles.pages.zip(pages).foreach { case (p, text) => assertEquals(text, OptionDocs.updateTables(text), s"$p: run bin/gen-options") }
    Scope.all.foreach(s => assertEquals(pages.count(_.contains(s"<!-- options:${s.name}:begin -->")), 1, s.name))
  }
}
