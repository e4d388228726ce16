package io.bloomparquet.spark

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import io.bloomparquet.digest.{DigestBuilt, DigestJob, TableDigest}
import io.bloomparquet.testing.{FailingFileSystem, LocalSpark}
import io.bloomparquet.testing.LocalSpark.{oracle, rows, withConf}
import org.apache.spark.sql.{DataFrame, SaveMode}

class DigestRefreshingCommitterSuite extends munit.FunSuite {
  private lazy val spark = LocalSpark.session

  private def keys(from: Long, to: Long): DataFrame =
    spark.range(from, to).selectExpr("id * 7919 AS k", "CAST(id AS STRING) AS s").coalesce(1)

  private def append(df: DataFrame, root: String): Unit =
    df.write.format("bloomparquet").option("bloom.columns", "k").mode(SaveMode.Append).save(root)

  private def tableWithDigest(name: String): Path = {
    val root = Files.createTempDirectory(name).resolve("t")
    append(keys(0, 1000), root.toString)
    append(keys(1000, 2000), root.toString)
    DigestJob.build(spark, root.toString, Seq("k"), DigestJob.DefaultFpp, full = true)
    root
  }

  private def pointer(root: Path): String =
    new String(Files.readAllBytes(root.resolve(TableDigest.Folder).resolve(TableDigest.PointerFile)), "UTF-8")

  /** A rebuild right after: what it could take from the digest as the write left it. */
  private def rebuilt(root: Path): DigestBuilt = DigestJob.build(spark, root.toString, Seq("k"), DigestJob.DefaultFpp, full = false)

  test("an append through bloomparquet rebuilds the directory's digest, which then covers every file") {
    val root = tableWithDigest("bp-digest-append")
    val before = pointer(root)
    append(keys(2000, 3000), root.toString)
    assertNotEquals(pointer(root), before)
    val again = rebuilt(root)
    assertEquals((again.files, again.filesReused, again.bytesRead), (3, 3, 0L), again.toString)
    val w = s"k = ${2500L * 7919}"
    assertEquals(rows(spark.read.format("bloomparquet").load(root.toString).where(w)), oracle(root)(_.where(w)))
  }

  test("INSERT INTO a bloomparquet table rebuilds its digest; a directory without one gets none") {
    val root = tableWithDigest("bp-digest-insert")
    spark.sql(s"CREATE TABLE bp_digest_insert USING bloomparquet OPTIONS ('bloom.columns' 'k') LOCATION '$root'")
    try {
      spark.sql(s"INSERT INTO bp_digest_insert SELECT id * 7919 AS k, CAST(id AS STRING) AS s FROM range(3000, 3100)")
      val again = rebuilt(root)
      assertEquals((again.files, again.filesReused, again.bytesRead), (again.files, again.files, 0L), again.toString)
      assert(again.files >= 3, again.toString)
    } finally spark.sql("DROP TABLE IF EXISTS bp_digest_insert")
    val bare = Files.createTempDirectory("bp-digest-none").resolve("t")
    append(keys(0, 100), bare.toString)
    append(keys(100, 200), bare.toString)
    assert(!Files.exists(bare.resolve(TableDigest.Folder)))
  }

  test("a session naming its own Parquet committer keeps it, and the digest waits for the next refresh") {
    val root = tableWithDigest("bp-digest-own-committer")
    val before = pointer(root)
    withConf("spark.sql.parquet.output.committer.class" -> "org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter") {
      append(keys(2000, 3000), root.toString)
    }
    assertEquals(pointer(root), before)
    val again = rebuilt(root)
    assertEquals((again.files, again.filesReused), (3, 2), again.toString)
  }

  test("a digest that cannot be rebuilt after a write leaves the write and the digest it had") {
    val local = tableWithDigest("bp-digest-unwritable")
    val before = pointer(local)
    val hadoop = spark.sparkContext.hadoopConfiguration
    val settings = FailingFileSystem.settings(-1, failRename = false).asScala + (FailingFileSystem.UnwritableFolder -> TableDigest.Folder)
    settings.foreach { case (k, v) => hadoop.set(k, v) }
    try append(keys(2000, 3000), s"${FailingFileSystem.Scheme}://$local")
    finally settings.keys.foreach(hadoop.unset)
    assertEquals(pointer(local), before)
    assertEquals(spark.read.parquet(local.toString).count(), 3000L)
    val again = rebuilt(local)
    assertEquals((again.files, again.filesReused), (3, 2), again.toString)
  }
}
