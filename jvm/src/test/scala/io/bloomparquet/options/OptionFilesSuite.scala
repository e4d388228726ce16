package io.bloomparquet.options

/** The committed renderings of the registry are up to date (else run bin/gen-options). */
class OptionFilesSuite extends munit.FunSuite {

  test("python/bloomparquet/_options.json is the registry's rendering") {
    assertEquals(OptionFiles.read(OptionFiles.json), OptionDocs.json, "run bin/gen-options")
  }

  test("docs/user-guide.md's option tables are the registry's rendering, one per scope") {
    val guide = OptionFiles.read(OptionFiles.guide)
    assertEquals(guide, OptionDocs.updateTables(guide), "run bin/gen-options")
    Scope.all.foreach(s => assert(guide.contains(s"<!-- options:${s.name}:begin -->"), s.name))
  }
}
