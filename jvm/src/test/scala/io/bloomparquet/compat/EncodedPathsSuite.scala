package io.bloomparquet.compat

import scala.util.Random

import org.apache.hadoop.fs.Path

/** A split's path text read without parsing where that gives what parsing gives, for any text. */
class EncodedPathsSuite extends munit.FunSuite {
  private def parsed(encoded: String): Option[String] =
    try Some(new Path(new java.net.URI(encoded)).toString)
    catch { case _: Exception => None }

  test("paths as Spark keeps them read as Hadoop's Path writes them") {
    val written = Seq("file:/tmp/t/part-0.parquet", "s3a://bucket/t/k=1/part-0.parquet", "hdfs://nn:8020/t/x",
      "file:/tmp/a b/c%d.parquet", "file:/tmp/ü/x", "abfss://c@a.dfs.core.windows.net/t/f", "file:/tmp/a:b",
      "gs://b/t/x=a%2Fb/f", "file:/tmp/x#y", "file:/tmp/x?y")
    written.map(new Path(_)).foreach { p =>
      val encoded = p.toUri.toString // how SparkPath keeps it
      assertEquals(EncodedPaths.pathText(encoded), p.toString, encoded)
    }
    assert(EncodedPaths.plain("s3a://bucket/t/k=1/part-00000-5a1b.c000.snappy.parquet"))
    assert(EncodedPaths.plain("file:/tmp/t/part-0.parquet"))
  }

  test("the text itself wherever it is taken as read: random texts of every awkward character") {
    val alphabet = "ab/.:=-_%20#?@ +~ü\\" // escapes, segments, query, fragment, authority, non-ASCII
    val random = new Random(7)
    val prefixes = Seq("file:", "file:/", "file://", "file:///", "s3a://b", "s3a://b/", "hdfs://nn:8020/", "x+y.z-1:/", "1a:/",
      ":/", "", "/", "C:/")
    var plain = 0
    (1 to 50000).foreach { _ =>
      val text = prefixes(random.nextInt(prefixes.size)) + Seq.fill(random.nextInt(14))(alphabet(random.nextInt(alphabet.length))).mkString
      if (EncodedPaths.plain(text)) {
        plain += 1
        assertEquals(Some(text), parsed(text), text)
      }
    }
    assert(plain > 1000, s"only $plain plain texts drawn")
  }
}
