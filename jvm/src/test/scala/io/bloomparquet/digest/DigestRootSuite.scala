package io.bloomparquet.digest

import org.apache.hadoop.fs.Path

/** Where a scan's table keeps its digest, and its files' paths relative to it. */
class DigestRootSuite extends munit.FunSuite {
  private def of(paths: String*): Option[String] = DigestRoot.of(paths.map(new Path(_))).map(_.toString)

  test("a table's folder, or the partition folders a catalog lists for it, give the table's root") {
    assertEquals(of("file:/lake/t"), Some("file:/lake/t"))
    assertEquals(of("file:/lake/t/p=1", "file:/lake/t/p=2"), Some("file:/lake/t"))
    assertEquals(of("file:/lake/t/p=1/q=a"), Some("file:/lake/t"))
    assertEquals(of("s3a://bucket/t/day=2026-11-30", "s3a://bucket/t/day=2026-12-01/h=3"), Some("s3a://bucket/t"))
    // Unrelated folders share only the root: a lookup there finds no digest of theirs.
    assertEquals(of("file:/a/t", "file:/b/u"), Some("file:/"))
  }

  test("no paths, or paths on different file systems, have no root") {
    assertEquals(of(), None)
    assertEquals(of("file:/lake/t", "s3a://bucket/lake/t"), None)
    assertEquals(of("s3a://one/t", "s3a://two/t"), None)
  }

  test("a file's path relative to the root, only under it and on its file system") {
    val root = new Path("s3a://bucket/t")
    assertEquals(DigestRoot.relative(root, new Path("s3a://bucket/t/p=1/part-0.parquet")), Some("p=1/part-0.parquet"))
    assertEquals(DigestRoot.relative(root, new Path("s3a://bucket/tt/part-0.parquet")), None)
    assertEquals(DigestRoot.relative(root, new Path("s3a://other/t/part-0.parquet")), None)
    assertEquals(DigestRoot.relative(root, new Path("file:/t/part-0.parquet")), None)
    assertEquals(DigestRoot.relative(new Path("file:/lake/t"), new Path("file:/lake/t/a b%.parquet")), Some("a b%.parquet"))
  }

  test("relative to a root from a path's text: the same answer as parsing it, for every spelling") {
    val roots = Seq("s3a://bucket/t", "s3a://bucket/t/", "s3a://bucket", "file:/lake/t", "file:/", "file:///lake/t", "hdfs://nn:8020/w/t")
    val files = Seq("s3a://bucket/t/p=1/part-0.parquet", "s3a://bucket/tt/part-0.parquet", "s3a://bucket/t", "s3a://other/t/x",
      "file:/lake/t/a b%.parquet", "file:/lake/t/a%20b.parquet", "file:///lake/t/x.parquet", "file:/lake/tt/x", "file:/x.parquet",
      "hdfs://nn:8020/w/t/k=a:b/f.parquet", "hdfs://nn/w/t/f.parquet", "/lake/t/x.parquet")
    for (r <- roots; f <- files) {
      val root = new Path(r)
      // Planning's keys are Path.toString's text; the raw spellings must not answer otherwise either.
      for (text <- Seq(new Path(f).toString, f))
        assertEquals(DigestRoot.relativeTo(root)(text), DigestRoot.relative(root, new Path(text)), s"$r, $text")
    }
  }
}
