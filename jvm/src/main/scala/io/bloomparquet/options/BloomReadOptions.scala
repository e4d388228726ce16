package io.bloomparquet.options

import java.util.Locale

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.util.CaseInsensitiveStringMap

/** Where row groups are pruned: on the driver while planning, or inside each task. */
sealed abstract class PruningMode(val name: String)
object PruningMode {
  case object Plan extends PruningMode("plan")
  case object Task extends PruningMode("task")
  val all: Seq[PruningMode] = Seq(Plan, Task)
}

/**
 * The read options of the `bloomparquet` source. Keys are case-insensitive;
 * an unknown `bloom.*` key or a bad value fails the query before it runs,
 * naming the option and what it accepts.
 *
 * | option                      | default | meaning |
 * |-----------------------------|---------|---------|
 * | bloom.enabled               | true    | prune with bloom filters and statistics at all |
 * | bloom.mode                  | plan    | `plan`: on the driver, before tasks start; `task`: inside each task (for very many files) |
 * | bloom.cacheMb               | 256     | MiB of footers and filters kept across queries, one cache per JVM (0: not used, left as it is) |
 * | bloom.planningParallelism   | 16      | files whose footers and filters are read at once while planning |
 * | bloom.sparkPushdown         | safe    | filters also given to Spark's own Parquet pushdown: `safe`, `all`, `none` ([[SparkPushdown]]) |
 */
final case class BloomReadOptions(enabled: Boolean, mode: PruningMode, cacheBytes: Long, planningParallelism: Int,
    sparkPushdown: SparkPushdown)

object BloomReadOptions {
  val Enabled = "bloom.enabled"
  val Mode = "bloom.mode"
  val CacheMb = "bloom.cacheMb"
  val PlanningParallelism = "bloom.planningParallelism"
  val SparkPushdownKey = "bloom.sparkPushdown"
  private val known = Seq(Enabled, Mode, CacheMb, PlanningParallelism, SparkPushdownKey)

  /** A read option key (any case): writes accept these too, so one OPTIONS clause serves both. */
  def isReadKey(key: String): Boolean = known.exists(_.equalsIgnoreCase(key))

  val default: BloomReadOptions = BloomReadOptions(enabled = true, PruningMode.Plan, 256L << 20, 16, SparkPushdown.Safe)

  def parse(options: CaseInsensitiveStringMap): BloomReadOptions = {
    options.keySet.asScala.map(_.toLowerCase(Locale.ROOT)).filter(_.startsWith("bloom.")).foreach { key =>
      if (!isReadKey(key) && !BloomWriteOptions.isWriteKey(key))
        fail(s"unknown option '$key'; read options are ${known.mkString(", ")}")
    }
    def get(key: String): Option[String] = Option(options.get(key)).map(_.trim)
    BloomReadOptions(
      enabled = get(Enabled).fold(default.enabled)(v => v.toLowerCase(Locale.ROOT) match {
        case "true" => true
        case "false" => false
        case _ => fail(s"option '$Enabled' must be true or false, got '$v'")
      }),
      mode = get(Mode).fold(default.mode)(v => PruningMode.all.find(_.name.equalsIgnoreCase(v)).getOrElse(
        fail(s"option '$Mode' must be one of ${PruningMode.all.map(_.name).mkString(", ")}, got '$v'"))),
      cacheBytes = get(CacheMb).fold(default.cacheBytes)(v => v.toLongOption.filter(n => n >= 0 && n <= (1L << 20))
        .getOrElse(fail(s"option '$CacheMb' must be an integer number of MiB from 0 to 1048576, got '$v'")) << 20),
      planningParallelism = get(PlanningParallelism).fold(default.planningParallelism)(v =>
        v.toIntOption.filter(n => n >= 1 && n <= 1024)
          .getOrElse(fail(s"option '$PlanningParallelism' must be an integer from 1 to 1024, got '$v'"))),
      sparkPushdown = get(SparkPushdownKey).fold(default.sparkPushdown)(v => SparkPushdown.all.find(_.name.equalsIgnoreCase(v))
        .getOrElse(fail(s"option '$SparkPushdownKey' must be one of ${SparkPushdown.all.map(_.name).mkString(", ")}, got '$v'"))))
  }

  private def fail(message: String): Nothing = throw new IllegalArgumentException(s"bloomparquet: $message")
}
