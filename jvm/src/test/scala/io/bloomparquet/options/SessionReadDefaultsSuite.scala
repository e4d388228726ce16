package io.bloomparquet.options

class SessionReadDefaultsSuite extends munit.FunSuite {
  private def session(confs: (String, String)*): String => Option[String] = confs.toMap.get

  test("a session default fills a read option the read does not give") {
    val got = SessionReadDefaults.under(Map("path" -> "/x"), session("spark.bloomparquet.read.sparkPushdown" -> "none"))
    assertEquals(got, Map("path" -> "/x", "bloom.sparkPushdown" -> "none"))
    assertEquals(BloomReadOptions.parse(got).sparkPushdown, SparkPushdown.Off)
  }

  test("the read's own option wins, whatever its case or deprecated name") {
    val set = session("spark.bloomparquet.read.mode" -> "task", "spark.bloomparquet.read.cache" -> "true")
    assertEquals(SessionReadDefaults.under(Map("BLOOM.MODE" -> "plan"), set).get("bloom.mode"), None)
    assertEquals(BloomReadOptions.parse(SessionReadDefaults.under(Map("BLOOM.MODE" -> "plan"), set)).mode, PruningMode.Plan)
    assertEquals(BloomReadOptions.parse(SessionReadDefaults.under(Map("bloom.cacheMb" -> "0"), set)).useCache, false)
  }

  test("a bad session value fails naming the session key") {
    val e = intercept[IllegalArgumentException](
      SessionReadDefaults.under(Map.empty, session("spark.bloomparquet.read.mode" -> "sometimes")))
    assert(e.getMessage.contains("option 'spark.bloomparquet.read.mode' = 'sometimes'"), e.getMessage)
  }

  test("every read option has a session form the unknown-settings check knows") {
    val keys = SessionReadDefaults.specs.map(SessionReadDefaults.key)
    assert(keys.contains("spark.bloomparquet.read.readCost.latencyMicros"))
    assertEquals(UnknownSettings.of(keys), Nil)
    assertEquals(UnknownSettings.of(Seq("spark.bloomparquet.read.modes")).size, 1)
    assert(!SessionReadDefaults.specs.exists(_.isPerColumn))
  }

  test("a scan's settings take the session's defaults") {
    val conf = SessionReadConf(caseSensitive = false, openCostInBytes = 4L << 20, inFilterThreshold = 10,
      fieldIdRead = false, set = session("spark.bloomparquet.read.dictionaries" -> "false"))
    assertEquals(ReadSettings.resolve(Map.empty[String, String], conf).bloom.dictionaries, false)
    assertEquals(ReadSettings.resolve(Map("bloom.dictionaries" -> "true"), conf).bloom.dictionaries, true)
  }
}
