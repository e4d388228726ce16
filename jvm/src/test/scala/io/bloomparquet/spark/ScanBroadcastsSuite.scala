package io.bloomparquet.spark

import java.nio.file.Files

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.testing.LocalSpark
import io.bloomparquet.testing.LocalSpark.{oracle, rows, withConf}
import org.apache.spark.sql.sources

class ScanBroadcastsSuite extends munit.FunSuite {
  private lazy val spark = LocalSpark.session
  import ScanBroadcasts.strict

  test("a strict key tells apart what Scala's == takes for equal, and sees arrays by content") {
    assertNotEquals(strict(sources.EqualTo("d", 0.0)), strict(sources.EqualTo("d", -0.0)))
    assertNotEquals(strict(sources.EqualTo("d", 0.0f)), strict(sources.EqualTo("d", -0.0f)))
    assertNotEquals(strict(sources.EqualTo("k", 1)), strict(sources.EqualTo("k", 1L)))
    assertNotEquals(strict(sources.EqualTo("k", new java.math.BigDecimal("1.0"))),
      strict(sources.EqualTo("k", new java.math.BigDecimal("1.00"))))
    assertNotEquals(strict(sources.EqualTo("a,b", "c")), strict(sources.EqualTo("a", "b,c")))
    assertEquals(strict(sources.In("k", Array[Any](1L, 2L))), strict(sources.In("k", Array[Any](1L, 2L))))
    assertNotEquals(strict(sources.In("k", Array[Any](1L, 2L))), strict(sources.In("k", Array[Any](1L, 3L))))
    assertEquals(strict(Seq(sources.EqualTo("s", "x"), Map("a" -> "b"))), strict(Seq(sources.EqualTo("s", "x"), Map("a" -> "b"))))
  }

  test("a reader and a configuration broadcast are built once while their inputs are equal") {
    val conf = SparkCompat.newHadoopConf(spark)
    var built = 0
    def reader(inputs: Seq[Any]) = ScanBroadcasts.of(spark, conf).reader(inputs) { built += 1; new Object }
    val first = reader(Seq("plain", sources.In("k", Array[Any](1L, 2L))))
    assert(reader(Seq("plain", sources.In("k", Array[Any](1L, 2L)))) eq first)
    assertEquals(built, 1)
    assert(reader(Seq("plain", sources.In("k", Array[Any](1L, 3L)))) ne first)
    assertEquals(built, 2)
    val broadcast = ScanBroadcasts.of(spark, conf).configuration(conf)
    assert(ScanBroadcasts.of(spark, conf).configuration(conf) eq broadcast)
    conf.set("fs.bloomparquet.test.setting", "other")
    assert(ScanBroadcasts.of(spark, conf).configuration(conf) ne broadcast, "another Hadoop setting")
    withConf("spark.sql.parquet.enableVectorizedReader" -> "false") {
      assert(reader(Seq("plain", sources.In("k", Array[Any](1L, 2L)))) ne first, "another SQL setting")
    }
  }

  test("repeated V1 scans with zeros of both signs return Spark's rows under every sparkPushdown") {
    // No filters in the files: nothing prunes, so the catalog table stays on Spark's V1 scan.
    val dir = Files.createTempDirectory("bp-zeros").resolve("data")
    spark.sql("SELECT CAST(id AS DOUBLE) * IF(id % 2 = 0, 0.0, -0.0) AS d, id FROM range(0, 40)")
      .union(spark.sql("SELECT CAST(id AS DOUBLE) AS d, id FROM range(1, 40)"))
      .write.parquet(dir.toString)
    val tables = Seq("safe", "all", "none").map(p => s"bp_zeros_$p" -> p)
    tables.foreach { case (t, p) => spark.sql(s"CREATE TABLE $t USING bloomparquet OPTIONS ('bloom.sparkPushdown' '$p') LOCATION '$dir'") }
    try
      for (round <- 1 to 2; (t, _) <- tables; w <- Seq("d = 0.0", "d = -0.0", "d <=> -0.0", "d IN (-0.0, 5.0)", "d IN (0.0, 5.0)"))
        assertEquals(rows(spark.sql(s"SELECT * FROM $t WHERE $w")), oracle(dir)(_.where(w)), s"round $round, $t: $w")
    finally tables.foreach { case (t, _) => spark.sql(s"DROP TABLE IF EXISTS $t") }
  }
}
