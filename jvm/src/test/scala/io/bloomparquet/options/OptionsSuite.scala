package io.bloomparquet.options

import scala.jdk.CollectionConverters._

import io.bloomparquet.write.BloomWriteOptions
import org.apache.spark.sql.types._
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/** Every registry entry's good and bad values, defaults, deprecated keys, unknown keys, and the typed views. */
class OptionsSuite extends munit.FunSuite {

  private val schema = StructType.fromDDL(
    "id BIGINT, Email STRING, flag BOOLEAN, ts TIMESTAMP, arr ARRAY<INT>, s STRUCT<x: INT, `a.b`: STRING>, d DECIMAL(20,2)")

  private def write(opts: (String, String)*): Seq[BloomColumn] =
    BloomWriteOptions.parse(opts.toMap, schema, caseSensitive = false, timestampType = "TIMESTAMP_MICROS")

  private def read(opts: (String, String)*): BloomReadOptions =
    BloomReadOptions.parse(new CaseInsensitiveStringMap(opts.toMap.asJava))

  private def error(body: => Any): String = intercept[IllegalArgumentException](body).getMessage

  /** key -> (a good value and what it parses to, a bad value); a new entry must add its samples here. */
  private val samples: Map[String, ((String, Any), Option[String])] = Map(
    "bloom.enabled" -> (("FALSE", false), Some("yes")),
    "bloom.mode" -> ((" Task ", PruningMode.Task), Some("fast")),
    "bloom.cache" -> (("false", false), Some("0")),
    "bloom.planningParallelism" -> (("1_000", 1000L), Some("-1")),
    "bloom.earlyStop" -> (("False", false), Some("off")),
    "bloom.dictionaries" -> (("TRUE", true), Some("always")),
    "bloom.digest" -> (("false", false), Some("never")),
    "bloom.digestSurvivors" -> (("Plan", PruningMode.Plan), Some("driver")),
    "bloom.filterReads" -> (("Blocks", FilterReads.Blocks), Some("partly")),
    "bloom.readCost.latencyMicros" -> (("20_000", 20000L), Some("-1")),
    "bloom.readCost.megabytesPerSecond" -> (("100", 100L), Some("fast")),
    "bloom.readCost.driverMegabytesPerSecond" -> (("1_000", 1000L), Some("-5")),
    "bloom.readCost.parallelRanges" -> (("4", 4L), Some("2000")),
    "bloom.sparkPushdown" -> (("NONE", SparkPushdown.Off), Some("some")),
    "bloom.columns" -> (("id, s.x,", Seq("id", "s.x")), None),
    "bloom.fpp" -> (("1e-3", 0.001), Some("1")),
    "bloom.fpp.<column>" -> (("0.5", 0.5), Some("NaN")),
    "bloom.ndv.<column>" -> (("1_000", 1000L), Some("0")),
    "bloom.sizing" -> (("fold", Sizing.Fold), Some("guess")),
    "bloom.fold.maxNdv" -> (("100", 100L), Some("many")),
    "bloom.overwrite" -> (("true", true), Some("1")),
    "spark.bloomparquet.cache.maxMb" -> (("0", 0L), Some("-1")),
    "spark.bloomparquet.planning.threads" -> (("4", 4L), Some("1025")),
    "spark.bloomparquet.planning.distributed" -> ((" Executors", PlanningPlaceSetting.Executors), Some("cluster")),
    "spark.bloomparquet.planning.jobMillis" -> (("2_000", 2000L), Some("-1")),
    "spark.bloomparquet.sql.planTimePruning" -> (("false", false), Some("off")),
    "spark.bloomparquet.parquet.enabled" -> (("TRUE", true), Some("yes")),
    "spark.bloomparquet.delta.enabled" -> (("false", false), Some("on")),
    "spark.bloomparquet.iceberg.enabled" -> (("true", true), Some("1")),
    "spark.bloomparquet.keySet.maxBytes" -> (("1048576", 1048576L), Some("-1")))

  private def keyGiven(spec: OptionSpec[_]): String = spec.key.replace(OptionSpec.ColumnPlaceholder, "id")

  private def check(spec: OptionSpec[_], value: String): Any =
    if (spec.scopes.forall(Seq(Scope.Session, Scope.Sql).contains)) spec.parse(spec.key, value) // Spark confs, not options
    else spec.parse(keyGiven(spec), OptionValidator.validate(Map(keyGiven(spec) -> value), spec.scopes).values(keyGiven(spec).toLowerCase))

  test("every registry entry has samples; keys are unique and in Spark's style") {
    assertEquals(OptionRegistry.all.map(_.key).toSet, samples.keySet)
    assertEquals(OptionRegistry.all.map(_.key.toLowerCase).distinct.size, OptionRegistry.all.size)
    OptionRegistry.all.foreach(s => assert(s.key.matches("""[a-z]+(\.([a-z][a-zA-Z]*|<column>))+"""), s.key))
  }

  test("each entry takes its good value and names itself, the value and what it accepts for a bad one") {
    OptionRegistry.all.foreach { spec =>
      val ((good, parsed), bad) = samples(spec.key)
      assertEquals(check(spec, good), parsed, spec.key)
      bad.foreach { b =>
        val e = error(check(spec, b))
        assert(e.startsWith("bloomparquet: "), e)
        assert(e.contains(s"option '${keyGiven(spec)}' = '$b'"), e)
        assert(e.contains(spec.kind.allowed), e)
      }
    }
    assert(error(read("bloom.fpp" -> "1.0")).contains("strictly between 0 and 1"))
    assert(error(read("bloom.mode" -> "x")).contains("one of plan, task"))
    assert(error(read("bloom.planningParallelism" -> "1025")).contains("an integer from 0 to 1024"))
    assert(error(write("bloom.ndv.id" -> "-3")).contains("an integer >= 1"))
  }

  test("defaults, in the registry and in the typed views") {
    val none = OptionValidator.validate(Map.empty)
    OptionRegistry.all.foreach(s => s.default.foreach(d => assertEquals(none.get(s): Any, d: Any, s.key)))
    assertEquals(read(), BloomReadOptions(enabled = true, PruningMode.Plan, useCache = true, 0, SparkPushdown.Safe, earlyStop = true))
    assertEquals(write("bloom.columns" -> "id"), Seq(BloomColumn(Seq("id"), 0.01, None, Sizing.Exact, 4L << 20)))
    assertEquals(write(), Nil)
    assertEquals(OptionRegistry.CacheMaxMb.default, Some(256L))
    assertEquals(OptionRegistry.PlanningThreads.default, Some(64L))
  }

  test("bloom.cacheMb is a deprecated key of bloom.cache, with a warning naming the new key and conf") {
    def cache(v: String) = OptionValidator.validate(Map("bloom.cacheMb" -> v))
    assertEquals(cache("0").get(OptionRegistry.Cache), false)
    assertEquals(cache("512").get(OptionRegistry.Cache), true)
    val w = cache("512").warnings.mkString
    assert(w.contains("'bloom.cacheMb' is deprecated, use 'bloom.cache'") && w.contains("spark.bloomparquet.cache.maxMb"), w)
    assertEquals(read("bloom.CACHEMB" -> "0").useCache, false)
    assertEquals(read("bloom.cacheMb" -> "0", "bloom.cache" -> "true").useCache, true) // the current key wins
    assert(error(read("bloom.cacheMb" -> "-1")).contains("option 'bloom.cacheMb' = '-1': expected an integer from 0 to"))
    assert(OptionValidator.validate(Map("bloom.cache" -> "false")).warnings.isEmpty)
    // Keys are case-insensitive: the old spelling of bloom.fold.maxNdv is the same key.
    assertEquals(write("bloom.columns" -> "id", "bloom.fold.maxndv" -> "7").head.foldMaxNdv, 7L)
  }

  test("an unknown key names the closest known one and lists them") {
    val e = error(write("bloom.columns" -> "id", "bloom.fp" -> "0.1"))
    assert(e.startsWith("bloomparquet: unknown option 'bloom.fp'; did you mean 'bloom.fpp'? Known options: bloom.enabled"), e)
    assert(error(read("bloom.colums" -> "x")).contains("did you mean 'bloom.columns'?"))
    assert(error(read("Bloom.Nope" -> "1")).contains("unknown option 'bloom.nope'; did you mean 'bloom.mode'?"))
    assert(error(read("bloom.ndv" -> "1")).contains("did you mean 'bloom.ndv.<column>'?"))
    assert(error(read("bloom.fpp." -> "0.1")).contains("unknown option 'bloom.fpp.'"))
    assertEquals(read("mergeSchema" -> "true", "spark.bloomparquet.cache.maxMb" -> "x"), read()) // not bloom.*: not ours
  }

  test("reads and writes accept each other's keys; retrofit-only keys are refused there") {
    assertEquals(read("bloom.columns" -> "id", "bloom.fpp.id" -> "0.1", "bloom.ndv.id" -> "5", "bloom.sizing" -> "fold",
        "bloom.fold.maxNdv" -> "10", "bloom.fpp" -> "0.2"), read())
    assertEquals(write("bloom.columns" -> "id", "bloom.mode" -> "task", "bloom.cache" -> "false", "bloom.cacheMb" -> "0",
        "bloom.enabled" -> "false", "bloom.planningParallelism" -> "2", "bloom.sparkPushdown" -> "all"), write("bloom.columns" -> "id"))
    assert(error(read("bloom.overwrite" -> "true")).contains("option 'bloom.overwrite' is a retrofit option, not a read/write option"))
    assert(error(OptionValidator.validate(Map("bloom.mode" -> "plan"), Seq(Scope.Retrofit))).contains("is a read option"))
  }

  test("columns, nested fields, backticks, case-insensitive keys and names, per-column values") {
    val cols = write("BLOOM.COLUMNS" -> "ID, email, S.`a.b`, s.x, id", "Bloom.Fpp" -> "0.05",
      "bloom.fpp.EMAIL" -> "0.001", "bloom.ndv.s.`a.b`" -> "1_000", "bloom.sizing" -> "FOLD")
    assertEquals(cols.map(_.path), Seq(Seq("id"), Seq("Email"), Seq("s", "a.b"), Seq("s", "x")))
    assertEquals(cols.map(_.fpp), Seq(0.05, 0.001, 0.05, 0.05))
    assertEquals(cols.map(_.ndv), Seq(None, None, Some(1000L), None))
    assertEquals(cols.map(_.sizing).distinct, Seq(Sizing.Fold))
    assert(error(write("bloom.columns" -> "id", "bloom.fpp.email" -> "0.1")).contains("not in bloom.columns"))
  }

  test("column errors name the option and what it accepts") {
    assert(error(write("bloom.columns" -> "nope")).contains("unknown column 'nope'"))
    assert(error(write("bloom.columns" -> "flag")).contains("booleans"))
    assert(error(write("bloom.columns" -> "arr")).contains("arrays and maps"))
    assert(error(write("bloom.columns" -> "arr.x")).contains("not a struct"))
    assert(error(write("bloom.columns" -> "s")).contains("name its fields"))
    val int96 = error(BloomWriteOptions.parse(Map("bloom.columns" -> "ts"), schema, caseSensitive = false, timestampType = "INT96"))
    assert(int96.contains("spark.sql.parquet.outputTimestampType"))
    assert(error(BloomWriteOptions.parse(Map("bloom.columns" -> "email"), schema, caseSensitive = true, timestampType = "INT96"))
        .contains("unknown column 'email'"))
  }

  test("retrofit checks its arguments against the same entries") {
    val e = error(io.bloomparquet.retrofit.RetrofitJob.run(null, "/nowhere", Seq("id"), 1.5, overwrite = false))
    assert(e.contains("option 'bloom.fpp' = '1.5': expected a probability strictly between 0 and 1"), e)
  }
}

class UnknownSettingsSuite extends munit.FunSuite {
  test("an unknown spark.bloomparquet setting is named with the closest known one; known and deprecated keys are not") {
    val warnings = UnknownSettings.of(Seq("spark.bloomparquet.icebreg.enabled", "spark.bloomparquet.parquet.enabled",
        "spark.bloomparquet.Cache.MaxMb", "spark.bloomparquet.planning.distributedThreshold", "spark.sql.shuffle.partitions",
        "spark.bloomparquet.planing.threads"))
    assertEquals(warnings.size, 2, warnings)
    assert(
      warnings.head.startsWith("bloomparquet: unknown setting 'spark.bloomparquet.icebreg.enabled' has no effect; " +
        "did you mean 'spark.bloomparquet.iceberg.enabled'?"), warnings.head)
    assert(warnings(1).contains("'spark.bloomparquet.planing.threads' has no effect; did you mean " +
        "'spark.bloomparquet.planning.threads'?"), warnings(1))
  }

  test("each unknown key is logged once per JVM") {
    val key = s"spark.bloomparquet.typo${System.nanoTime}"
    assertEquals(UnknownSettings.warnOnce(Seq(key)).size, 1)
    assertEquals(UnknownSettings.warnOnce(Seq(key, "spark.bloomparquet.delta.enabled")), Nil)
  }
}
