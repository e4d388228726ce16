package io.bloomparquet.options

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, ObjectInputStream, ObjectOutputStream}

import org.apache.spark.sql.internal.SQLConf

/** A scan's settings: built from its read options and its session's conf, checked, and shipped to executors. */
class ReadSettingsSuite extends munit.FunSuite {

  private def session(confs: (String, String)*): SQLConf = {
    val conf = new SQLConf
    confs.foreach { case (k, v) => conf.setConfString(k, v) }
    conf
  }

  private def resolve(options: Map[String, String], confs: (String, String)*): ReadSettings =
    ReadSettings.resolve(options, of(session(confs: _*)))

  private def of(conf: SQLConf): SessionReadConf = SessionReadConf(conf.caseSensitiveAnalysis, conf.filesOpenCostInBytes,
    conf.parquetFilterPushDownInFilterThreshold, conf.parquetFieldIdReadEnabled,
    key => if (conf.contains(key)) Some(conf.getConfString(key)) else None)

  private def error(body: => Any): String = intercept[IllegalArgumentException](body).getMessage

  test("defaults: the registry's read options and Spark's own session defaults") {
    val spark = new SQLConf
    assertEquals(resolve(Map.empty),
      ReadSettings(
        BloomReadOptions(enabled = true, PruningMode.Plan, useCache = true, planningParallelism = 0, SparkPushdown.Safe,
          earlyStop = true),
        caseSensitive = spark.caseSensitiveAnalysis, gapBytes = spark.filesOpenCostInBytes,
        sparkInFilterThreshold = spark.parquetFilterPushDownInFilterThreshold, planningPlace = PlanningPlaceSetting.Auto,
        planningJobSeconds = 1.0,
        fieldIdRead = spark.parquetFieldIdReadEnabled))
    // Each registry default is what the settings hold without options.
    val bloom = resolve(Map.empty).bloom
    assertEquals(bloom.enabled, OptionRegistry.Enabled.default.get)
    assertEquals(bloom.mode, OptionRegistry.Mode.default.get)
    assertEquals(bloom.useCache, OptionRegistry.Cache.default.get)
    assertEquals(bloom.planningParallelism.toLong, OptionRegistry.PlanningParallelism.default.get)
    assertEquals(bloom.earlyStop, OptionRegistry.EarlyStop.default.get)
    assertEquals(bloom.sparkPushdown, OptionRegistry.SparkPushdownKey.default.get)
    assertEquals(bloom.filterReads, OptionRegistry.FilterReadsKey.default.get)
    assertEquals(bloom.digestSurvivors, OptionRegistry.DigestSurvivors.default.get)
    assertEquals(bloom.readCost,
      ReadCostSettings(OptionRegistry.ReadLatencyMicros.default.get,
        OptionRegistry.ReadMegabytesPerSecond.default.get, OptionRegistry.ReadParallelRanges.default.get,
        OptionRegistry.ReadDriverMegabytesPerSecond.default.get))
  }

  test("every read option given reaches the settings, typed; keys without case") {
    val s = resolve(Map("bloom.enabled" -> "false", "BLOOM.MODE" -> "task", "bloom.cache" -> "false",
        "bloom.planningParallelism" -> "3", "bloom.EarlyStop" -> "false", "bloom.sparkPushdown" -> "all",
        "bloom.filterReads" -> "BLOCKS", "bloom.readCost.latencyMicros" -> "20000",
        "bloom.readCost.megabytesPerSecond" -> "50", "Bloom.ReadCost.ParallelRanges" -> "4",
        "bloom.readCost.driverMegabytesPerSecond" -> "800", "bloom.Dictionaries" -> "false", "bloom.DIGEST" -> "false",
        "bloom.digestSurvivors" -> "plan"))
    assertEquals(s.bloom,
      BloomReadOptions(enabled = false, PruningMode.Task, useCache = false, 3, SparkPushdown.All,
        earlyStop = false, FilterReads.Blocks, ReadCostSettings(20000, 50, 4, 800), dictionaries = false, digest = false,
        digestSurvivors = PruningMode.Plan))
    // A new read option must be added to this test (and to tests/test_read_option_routes.py's table).
    assertEquals(OptionRegistry.inScope(Scope.Read).map(_.key),
      Seq("bloom.enabled", "bloom.mode", "bloom.cache", "bloom.planningParallelism", "bloom.earlyStop",
        "bloom.dictionaries", "bloom.digest", "bloom.digestSurvivors", "bloom.filterReads", "bloom.readCost.latencyMicros",
        "bloom.readCost.megabytesPerSecond", "bloom.readCost.driverMegabytesPerSecond", "bloom.readCost.parallelRanges",
        "bloom.sparkPushdown"))
  }

  test("session values come from the session conf; options can't set them, and session confs set no option") {
    val s = resolve(
      Map("spark.sql.caseSensitive" -> "true", "spark.sql.files.openCostInBytes" -> "0",
        "spark.bloomparquet.planning.distributed" -> "driver"),
      "spark.sql.caseSensitive" -> "true", "spark.sql.files.openCostInBytes" -> "1234",
      "spark.bloomparquet.planning.distributed" -> "executors", "spark.bloomparquet.planning.jobMillis" -> "250",
      "spark.sql.parquet.fieldId.read.enabled" -> "true", "bloom.mode" -> "task", "bloom.earlyStop" -> "false",
      "spark.sql.parquet.pushdown.inFilterThreshold" -> "3")
    assertEquals((s.caseSensitive, s.gapBytes, s.sparkInFilterThreshold, s.planningPlace, s.planningJobSeconds, s.fieldIdRead),
      (true, 1234L, 3, PlanningPlaceSetting.Executors, 0.25, true))
    assertEquals(s.bloom, resolve(Map.empty).bloom)
    // The former file-count key: 0 (never) is driver, any count auto; the current key wins over it.
    val threshold = "spark.bloomparquet.planning.distributedThreshold"
    assertEquals(resolve(Map.empty, threshold -> "0").planningPlace, PlanningPlaceSetting.Driver)
    assertEquals(resolve(Map.empty, threshold -> "10_000").planningPlace, PlanningPlaceSetting.Auto)
    assertEquals(resolve(Map.empty, threshold -> "0", "spark.bloomparquet.planning.distributed" -> "executors").planningPlace,
      PlanningPlaceSetting.Executors)
  }

  test("a bad value names the option, the value and what it accepts; an unknown key names the closest") {
    val bad = Map("bloom.enabled" -> "yes", "bloom.mode" -> "fast", "bloom.cache" -> "0",
      "bloom.planningParallelism" -> "-1", "bloom.earlyStop" -> "off", "bloom.sparkPushdown" -> "some",
      "bloom.dictionaries" -> "maybe", "bloom.digest" -> "1", "bloom.digestSurvivors" -> "driver", "bloom.filterReads" -> "partly",
      "bloom.readCost.latencyMicros" -> "-1",
      "bloom.readCost.megabytesPerSecond" -> "fast",
      "bloom.readCost.parallelRanges" -> "2000", "bloom.readCost.driverMegabytesPerSecond" -> "-5")
    OptionRegistry.inScope(Scope.Read).foreach { spec =>
      val e = error(resolve(Map(spec.key -> bad(spec.key))))
      assert(e.contains(s"option '${spec.key}' = '${bad(spec.key)}': expected ${spec.kind.allowed}"), e)
    }
    assert(error(resolve(Map("bloom.earlyStp" -> "true"))).contains("did you mean 'bloom.earlyStop'?"))
    val conf = error(resolve(Map.empty, "spark.bloomparquet.planning.distributed" -> "cluster"))
    assert(conf.contains("option 'spark.bloomparquet.planning.distributed' = 'cluster': expected one of auto, driver, executors"),
      conf)
    val old = error(resolve(Map.empty, "spark.bloomparquet.planning.distributedThreshold" -> "-1"))
    assert(old.contains("option 'spark.bloomparquet.planning.distributedThreshold' = '-1': expected an integer from 0"), old)
  }

  test("serializable: executors get the same settings") {
    val s = resolve(Map("bloom.mode" -> "task", "bloom.earlyStop" -> "false", "bloom.sparkPushdown" -> "none"),
      "spark.sql.files.openCostInBytes" -> "7")
    val bytes = new ByteArrayOutputStream()
    val out = new ObjectOutputStream(bytes)
    out.writeObject(s)
    out.close()
    val back = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray)).readObject()
    assertEquals(back, s)
    assert(back.asInstanceOf[ReadSettings].bloom.mode eq PruningMode.Task)
  }
}
