package io.bloomparquet.testing

import java.nio.file.{Files, Path}

import org.apache.spark.sql.{DataFrame, Row, SparkSession}

/**
 * One local Spark session with bloomparquet's session extension for the JVM suites that start
 * Spark (the forked test JVM runs suites one after another; the session lives as long as it).
 * The oracle of every differential check is Spark's own `parquet` with its pushdown off.
 */
object LocalSpark {
  lazy val session: SparkSession = {
    val spark = started
    spark.sparkContext.setLogLevel("WARN") // Spark's default profile logs every task at INFO
    spark
  }

  private def started: SparkSession = SparkSession.builder()
    .master("local[2]")
    .appName("bloomparquet-jvm-tests")
    .config("spark.sql.extensions", "io.bloomparquet.BloomParquetExtensions")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "4")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.warehouse.dir", Files.createTempDirectory("bp-warehouse").toString)
    .getOrCreate()

  /** `df`'s rows in a canonical order, to compare routes. */
  def rows(df: DataFrame): Seq[String] = df.collect().toSeq.map(rowString).sorted

  private def rowString(r: Row): String = r.toSeq.map(String.valueOf).mkString("|")

  /** `query` over `path` read by Spark's `parquet` with its pushdown off. */
  def oracle(path: Path)(query: DataFrame => DataFrame): Seq[String] = {
    val spark = session
    val before = spark.conf.getOption("spark.sql.parquet.filterPushdown")
    spark.conf.set("spark.sql.parquet.filterPushdown", "false")
    spark.conf.set("spark.bloomparquet.parquet.enabled", "false")
    try rows(query(spark.read.parquet(path.toString)))
    finally before.fold(spark.conf.unset("spark.sql.parquet.filterPushdown"))(spark.conf.set("spark.sql.parquet.filterPushdown", _))
  }

  /** `body` with the session confs `confs` set, restored after. */
  def withConf[T](confs: (String, String)*)(body: => T): T = {
    val spark = session
    val before = confs.map { case (k, _) => k -> spark.conf.getOption(k) }
    confs.foreach { case (k, v) => spark.conf.set(k, v) }
    try body
    finally before.foreach { case (k, v) => v.fold(spark.conf.unset(k))(spark.conf.set(k, _)) }
  }

  /**
   * 8 files of 2,000 rows in row groups of a few KiB, written by bloomparquet's writer with a
   * filter on `k` (even ids: `k = 2 * id`, so odd keys are absent yet inside every min/max),
   * a string `s` and a nullable `n`.
   */
  def bloomData(): Path = {
    val dir = Files.createTempDirectory("bp-session").resolve("data")
    session.range(0, 16000, 1, 8)
      .selectExpr("id * 2 AS k", "concat('s', id % 97) AS s", "IF(id % 5 = 0, NULL, id) AS n")
      .write.format("bloomparquet").option("bloom.columns", "k").option("parquet.block.size", "8192")
      .save(dir.toString)
    dir
  }
}
