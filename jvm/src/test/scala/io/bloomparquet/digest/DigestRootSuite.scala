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
}
