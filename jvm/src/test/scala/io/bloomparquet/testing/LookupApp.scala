package io.bloomparquet.testing

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import io.bloomparquet.python.PythonBridge
import org.apache.spark.sql.SparkSession

/**
 * A JVM application as a cluster user submits one (tests/packaging/test_standalone_cluster.py:
 * `spark-submit --deploy-mode cluster --packages io.bloomparquet:...`, the driver started by a
 * standalone worker): writes keys with filters, looks up a missing and a present key through
 * `bloomparquet`, compares their rows with Spark's `parquet` with pushdown off, and writes what it
 * saw as one JSON line to `args(1)` (a cluster-mode driver's output goes to the worker's logs).
 * Usage: LookupApp DATA_DIR RESULT_FILE
 */
object LookupApp {
  def main(args: Array[String]): Unit = {
    val (dir, result) = (args(0), args(1))
    val spark = SparkSession.builder().getOrCreate()
    val out = s"$dir/keys"
    // Even keys in shuffled order (7919 is coprime to 200,000): statistics can't prune, filters can.
    spark.range(0, 200000, 1, 2).selectExpr("(id * 7919) % 200000 * 2 AS k", "concat('e', id) AS email")
      .coalesce(1).write.format("bloomparquet").mode("overwrite")
      .option("bloom.columns", "k").option("bloom.fpp", "0.0001").option("parquet.block.size", (256 * 1024).toString)
      .save(out)
    def rows(format: String, where: String): Seq[String] =
      spark.read.format(format).load(out).where(where).select("email").collect().map(_.getString(0)).toSeq.sorted
    val hitKey = 1234L * 7919 % 200000 * 2
    val miss = spark.read.format("bloomparquet").load(out).where("k = 12345")
    val missRows = miss.collect().length
    val missMetrics = PythonBridge.scanMetrics(miss)
    val hit = rows("bloomparquet", s"k = $hitKey")
    spark.conf.set("spark.sql.parquet.filterPushdown", "false")
    val expected = (rows("parquet", s"k = $hitKey"), rows("parquet", "k = 12345"))
    val json = s"""{"spark": "${spark.version}", "extensions": "${spark.conf.get("spark.sql.extensions", "")}", """ +
      s""""miss_rows": $missRows, "miss_tasks": ${missMetrics.get("tasks")}, """ +
      s""""row_groups": ${missMetrics.get("bloomRowGroupsTotal")}, "pruned": ${missMetrics.get("bloomRowGroupsPrunedByBloom")}, """ +
      s""""hit": "${hit.mkString(",")}", "same_as_parquet": ${(hit, missRows) == (expected._1, expected._2.length)}}"""
    Files.write(Paths.get(result), json.getBytes(StandardCharsets.UTF_8))
    spark.stop()
  }
}
