package io.bloomparquet.session

import java.nio.file.Path

import io.bloomparquet.compat.ExecutedScans
import io.bloomparquet.testing.LocalSpark
import io.bloomparquet.testing.LocalSpark.{oracle, rows, withConf}
import org.apache.spark.sql.DataFrame

/**
 * Every read route on a local session, differential against Spark's `parquet` with its pushdown
 * off: the DataFrame route (plan and task mode), a catalog table, SQL on a path and, opted in,
 * plain `parquet`; and the pruning each route is there for.
 */
class SqlRoutesSuite extends munit.FunSuite {
  private lazy val spark = LocalSpark.session
  private lazy val data: Path = LocalSpark.bloomData()

  private val predicates = Seq(
    "k = 2001", // absent (odd): every row group pruned by its filter
    "k = 2000", // present once
    "k IN (1, 3, 4002, 31999)", // one present
    "k > 31000 AND k < 31010", // a range: no bloom question
    "s = 's3' AND k = 6", // present, with a second conjunct
    "n IS NULL AND k = 10", // k = 10 has id 5: n is null
    "k = 2001 OR s = 's5'" // an OR with a branch no filter answers: nothing pruned
  )

  private def routes(path: Path): Seq[(String, (String => DataFrame))] = Seq(
    "dataframe plan" -> (w => spark.read.format("bloomparquet").load(path.toString).where(w)),
    "dataframe task" -> (w => spark.read.format("bloomparquet").option("bloom.mode", "task").load(path.toString).where(w)),
    "sql table" -> (w => spark.sql(s"SELECT * FROM jvm_routes WHERE $w")),
    "sql path" -> (w => spark.sql(s"SELECT * FROM bloomparquet.`$path` WHERE $w")),
    "parquet opted in" ->
      (w =>
        withConf("spark.bloomparquet.parquet.enabled" -> "true")(
          spark.read.parquet(path.toString).where(w)))
  )

  override def beforeAll(): Unit =
    spark.sql(s"CREATE TABLE IF NOT EXISTS jvm_routes USING bloomparquet LOCATION '$data'")

  override def afterAll(): Unit = spark.sql("DROP TABLE IF EXISTS jvm_routes")

  test("every route returns Spark's rows for every predicate") {
    for ((route, read) <- routes(data); w <- predicates) {
      // The opted-in route plans when the DataFrame is built: keep the conf while it runs.
      val got = withConf("spark.bloomparquet.parquet.enabled" -> "true")(rows(read(w)))
      assertEquals(got, oracle(data)(_.where(w)), s"$route: $w")
    }
  }

  test("a point miss is pruned before any task starts on the plan-time routes") {
    for ((route, read) <- routes(data) if route != "dataframe task") {
      withConf("spark.bloomparquet.parquet.enabled" -> "true") {
        val df = read("k = 2001")
        assertEquals(df.collect().length, 0, route)
        val scans = ExecutedScans.of(df)
        assertEquals(scans.length, 1, route)
        val scan = scans.head
        assert(scan.metrics.getOrElse("bloomRowGroupsPrunedByBloom", 0L) > 0, s"$route: ${scan.metrics}")
        assertEquals(scan.partitions, 0L, s"$route: tasks planned")
      }
    }
  }

  test("task mode prunes inside its tasks: every row group read is one the filters kept") {
    val df = spark.read.format("bloomparquet").option("bloom.mode", "task").load(data.toString).where("k = 2001")
    assertEquals(df.collect().length, 0)
    val scan = ExecutedScans.of(df).head
    assert(scan.partitions > 0, "task mode plans its tasks as Spark would")
  }
}
