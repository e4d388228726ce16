package io.bloomparquet.options

import scala.jdk.CollectionConverters._

import io.bloomparquet.options.OptionRegistry._
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/** Where row groups are pruned: on the driver while planning, or inside each task. */
sealed abstract class PruningMode(val name: String) extends Serializable // Scala 2.12: its case objects go to tasks
object PruningMode {
  case object Plan extends PruningMode("plan")
  case object Task extends PruningMode("task")
  val all: Seq[PruningMode] = Seq(Plan, Task)
}

/** Where plan-time pruning reads footers and filters: as the cost of each place says, on the driver, or in a job. */
sealed abstract class PlanningPlaceSetting(val name: String) extends Serializable
object PlanningPlaceSetting {
  case object Auto extends PlanningPlaceSetting("auto")
  case object Driver extends PlanningPlaceSetting("driver")
  case object Executors extends PlanningPlaceSetting("executors")
  val all: Seq[PlanningPlaceSetting] = Seq(Auto, Driver, Executors)
}

/** How plan-time pruning reads a probed filter: whole, only the blocks its probes hash to, or as the cost model says. */
sealed abstract class FilterReads(val name: String) extends Serializable
object FilterReads {
  case object Auto extends FilterReads("auto")
  case object Whole extends FilterReads("whole")
  case object Blocks extends FilterReads("blocks")
  val all: Seq[FilterReads] = Seq(Auto, Whole, Blocks)
}

/**
 * The read cost model's figures a scan gives (`bloom.readCost.*`): each 0 takes the file system's
 * default (`planning.ReadCost`). `filesAtOnce` is not an option: planning sets it to the files it
 * reads at once, which share the driver's bandwidth.
 */
final case class ReadCostSettings(latencyMicros: Long = 0, megabytesPerSecond: Long = 0, parallelRanges: Long = 0,
    driverMegabytesPerSecond: Long = 0, filesAtOnce: Int = 1)

/**
 * The read options of the `bloomparquet` source, typed. What each means, its
 * default and what it accepts: [[OptionRegistry]] (docs/reading.md, "Read options"). A scan
 * holds them in its [[ReadSettings]], with what the session says.
 */
final case class BloomReadOptions(enabled: Boolean, mode: PruningMode, useCache: Boolean, planningParallelism: Int,
    sparkPushdown: SparkPushdown, earlyStop: Boolean, filterReads: FilterReads = FilterReads.Auto,
    readCost: ReadCostSettings = ReadCostSettings(), dictionaries: Boolean = true, digest: Boolean = true,
    digestSurvivors: PruningMode = PruningMode.Task)

object BloomReadOptions {

  /** The read options in `options`; an unknown `bloom.*` key or a bad value fails here. */
  def parse(options: CaseInsensitiveStringMap): BloomReadOptions = parse(options.asCaseSensitiveMap.asScala.toMap)

  def parse(options: Map[String, String]): BloomReadOptions = {
    val valid = OptionValidator.validate(options)
    BloomReadOptions(
      enabled = valid.get(Enabled),
      mode = valid.get(Mode),
      useCache = valid.get(Cache),
      planningParallelism = valid.get(PlanningParallelism).toInt,
      sparkPushdown = valid.get(SparkPushdownKey),
      earlyStop = valid.get(EarlyStop),
      dictionaries = valid.get(Dictionaries),
      digest = valid.get(Digest),
      digestSurvivors = valid.get(DigestSurvivors),
      filterReads = valid.get(FilterReadsKey),
      readCost = ReadCostSettings(valid.get(ReadLatencyMicros), valid.get(ReadMegabytesPerSecond), valid.get(ReadParallelRanges),
        valid.get(ReadDriverMegabytesPerSecond)))
  }
}
