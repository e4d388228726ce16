package io.bloomparquet.session

import java.nio.file.Path

import io.bloomparquet.compat.{ExecutedScans, SparkCompat}
import io.bloomparquet.testing.LocalSpark
import io.bloomparquet.testing.LocalSpark.{oracle, rows, withConf}
import org.apache.spark.sql.DataFrame

/**
 * The session extension's rules on a local session: which relations take the V2 scan
 * ([[io.bloomparquet.sql.V2ScanRoute]], [[io.bloomparquet.sql.KeptV1Parquet]],
 * [[io.bloomparquet.sql.UnprunableOnV1]]) and the
 * runtime filters [[io.bloomparquet.sql.KeySetPruning]] gives it from small key sets; rows always
 * Spark's with its pushdown off.
 */
class ExtensionRulesSuite extends munit.FunSuite {
  private lazy val spark = LocalSpark.session
  private lazy val data: Path = LocalSpark.bloomData()
  private val optIn = "spark.bloomparquet.parquet.enabled" -> "true"

  private def plan(df: DataFrame): String = SparkCompat.queryExecution(df).executedPlan.toString

  test("opted-in plain Parquet takes the V2 scan where a filter could prune, Spark's V1 scan elsewhere") {
    withConf(optIn) {
      val probe = spark.read.parquet(data.toString).where("k = 2001")
      assert(plan(probe).contains("BatchScan"), plan(probe))
      // A range and an aggregate: no bloom question, no join. V1, still read through our format.
      val range = spark.read.parquet(data.toString).where("k > 100").groupBy().count()
      assert(!plan(range).contains("BatchScan") && plan(range).contains("Format: BloomParquet"), plan(range))
      assertEquals(rows(range), oracle(data)(_.where("k > 100").groupBy().count()))
    }
  }

  test("scalar subqueries that nothing could prune are merged as Spark merges them") {
    spark.read.parquet(data.toString).createOrReplaceTempView("jvm_rules_t")
    val q = "SELECT (SELECT count(*) FROM jvm_rules_t WHERE k < 100), (SELECT sum(k) FROM jvm_rules_t WHERE k < 100)"
    val sparks = plan(spark.sql(q))
    val ours = withConf(optIn)(plan(spark.sql(q)))
    assert(sparks.contains("mergedValue") && ours.contains("mergedValue"), ours)
  }

  test("a bloomparquet relation nothing could prune takes Spark's V1 scan through our format, on every route") {
    spark.read.format("bloomparquet").load(data.toString).createOrReplaceTempView("jvm_rules_format")
    val routes = Seq(
      "the format" -> (() => spark.read.format("bloomparquet").load(data.toString)),
      "a view" -> (() => spark.table("jvm_rules_format")),
      "SQL on a path" -> (() => spark.sql(s"SELECT * FROM bloomparquet.`$data`"))
    )
    for ((route, table) <- routes) {
      val range = table().where("k > 100").groupBy().count()
      assert(!plan(range).contains("BatchScan") && plan(range).contains("Format: BloomParquet"), s"$route: ${plan(range)}")
      assertEquals(rows(range), oracle(data)(_.where("k > 100").groupBy().count()), route)
      val probe = table().where("k = 2001")
      assert(plan(probe).contains("BatchScan"), s"$route: ${plan(probe)}")
      assertEquals(rows(probe), oracle(data)(_.where("k = 2001")), route)
    }
  }

  test("scalar subqueries over the bloomparquet format that nothing could prune are merged") {
    spark.read.format("bloomparquet").load(data.toString).createOrReplaceTempView("jvm_rules_merge")
    val q = "SELECT (SELECT count(*) FROM jvm_rules_merge WHERE k < 100), (SELECT sum(k) FROM jvm_rules_merge WHERE k < 100)"
    val ours = plan(spark.sql(q))
    assert(ours.contains("mergedValue") && !ours.contains("BatchScan"), ours)
    spark.read.parquet(data.toString).createOrReplaceTempView("jvm_rules_merge_oracle")
    withConf("spark.sql.parquet.filterPushdown" -> "false") {
      assertEquals(rows(spark.sql(q)), rows(spark.sql(q.replace("jvm_rules_merge", "jvm_rules_merge_oracle"))))
    }
  }

  test("a join to a small key set gives the bloomparquet scan a runtime filter; rows are Spark's") {
    val keys = spark.createDataFrame(Seq(Tuple1(2001L), Tuple1(4000L), Tuple1(9L))).toDF("k").coalesce(1).cache()
    try {
      def query(t: DataFrame) = t.join(keys, "k")
      val ours = query(spark.read.format("bloomparquet").load(data.toString))
      assertEquals(rows(ours), oracle(data)(query))
      val scan = ExecutedScans.of(ours).find(_.metrics.contains("bloomRuntimeFiltersReceived")).get
      assert(scan.metrics("bloomRuntimeFiltersReceived") >= 1, scan.metrics)
      withConf("spark.bloomparquet.keySet.maxBytes" -> "0") {
        val off = query(spark.read.format("bloomparquet").load(data.toString))
        assertEquals(rows(off), oracle(data)(query))
        val received = ExecutedScans.of(off).map(_.metrics.getOrElse("bloomRuntimeFiltersReceived", 0L)).sum
        assertEquals(received, 0L)
      }
    } finally keys.unpersist()
  }
}
