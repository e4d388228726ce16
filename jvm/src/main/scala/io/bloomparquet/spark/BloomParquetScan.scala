package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.digest.DigestRoot
import io.bloomparquet.options.{PruningMode, ReadSettings}
import io.bloomparquet.pruning.{BloomPredicate, PartitionKeys, RuntimeFilters}
import io.bloomparquet.spark.metrics.{BloomMetrics, PruningCounts}
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.connector.expressions.{Expression => V2Expression, NamedReference}
import org.apache.spark.sql.connector.metric.{CustomMetric, CustomTaskMetric}
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReaderFactory, Scan, SupportsRuntimeV2Filtering}
import org.apache.spark.sql.execution.datasources.v2.FileScan
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetScan
import org.apache.spark.sql.execution.datasources.{FilePartition, PartitioningAwareFileIndex}
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration

/**
 * Spark's own Parquet scan (wrapped, not subclassed) whose splits are cut down
 * to the row groups that may match before any task starts. With no usable
 * predicate it is exactly the wrapped scan: no footer or filter is read.
 */
final class BloomParquetScan(val delegate: ParquetScan, val predicate: Option[BloomPredicate],
    val settings: ReadSettings, notes: PlanNotes)
    extends FileScan with SupportsRuntimeV2Filtering {

  override def sparkSession: SparkSession = delegate.sparkSession
  override def fileIndex: PartitioningAwareFileIndex = delegate.fileIndex
  override def dataSchema: StructType = delegate.dataSchema
  override def readDataSchema: StructType = delegate.readDataSchema
  override def readPartitionSchema: StructType = delegate.readPartitionSchema
  override def partitionFilters: Seq[Expression] = delegate.partitionFilters
  override def dataFilters: Seq[Expression] = delegate.dataFilters
  override def isSplitable(path: Path): Boolean = delegate.isSplitable(path)
  override def readSchema(): StructType = delegate.readSchema()

  private def bloom = settings.bloom

  private def active: Option[BloomPredicate] = predicate.filter(_ => bloom.enabled)

  // Planned once per scan: Spark may ask more than once, and the metrics describe this one planning.
  private lazy val planned: Planned = active match {
    case Some(p) if bloom.mode == PruningMode.Plan => prune(p)
    case _ => unpruned(super.partitions)
  }

  /** Spark's own splits (in task mode, each task judges its files: [[PlannedReaderFactory]]). */
  private def unpruned(base: Seq[FilePartition]): Planned = Planned(base, PruningCounts(), Map.empty, None)

  // Set when Spark hands runtime filters (dynamic pruning from a join) after planning.
  @volatile private var runtimePlanned: Option[Planned] = None

  private def prune(p: BloomPredicate): Planned = prune(super.partitions, p)

  private def prune(base: Seq[FilePartition], p: BloomPredicate): Planned = {
    val PrunedSplits(kept, counts, judged, inTask) = SplitPruning.prune(base.flatMap(_.files.toSeq), p,
      delegate.hadoopConf, settings,
      PruningSite.Planning(sparkSession, DigestRoot.of(fileIndex.rootPaths), tasksJudge = true))
    val unchanged = counts.filesPruned == 0 &&
      counts.rowGroupsPrunedByStats + counts.rowGroupsPrunedByBloom + counts.rowGroupsPrunedByDictionary == 0
    Planned(if (unchanged) base else TaskPacking.pack(sparkSession, kept), counts, judged, inTask)
  }

  private def current: Planned = runtimePlanned.getOrElse(planned)

  override protected def partitions: Seq[FilePartition] = current.partitions

  // A partition holding splits planning cut carries those files' judged versions, which its task
  // checks, and one holding files planning left unread, what its task judges them with.
  override def planInputPartitions(): Array[InputPartition] = {
    val now = current
    now.partitions.map(JudgedPartition.of(_, now.judged, now.inTask)).toArray
  }

  /**
   * Columns a join's keys may prune at runtime ([[RuntimeFilterColumns]]): partition columns, and
   * read columns whose equality we can probe (plan mode) that carry bloom filters in the files.
   * Every column declared invites Spark's dynamic pruning to plan a subquery for it; computed once.
   */
  private lazy val runtimeFilterColumns: Array[NamedReference] = if (notes.inSubquery) Array.empty
  else {
    (RuntimeFilterColumns.data(readDataSchema.fields.toSeq, fileIndex, delegate.hadoopConf, settings) ++
      RuntimeFilterColumns.partition(readPartitionSchema.fields.toSeq))
      .map(f => ColumnReference(f.name): NamedReference).toArray
  }

  override def filterAttributes(): Array[NamedReference] = runtimeFilterColumns

  // What runtime filters cost this scan: how many Spark handed it, and the time spent applying them.
  @volatile private var runtimeFiltersReceived = 0L
  @volatile private var runtimeFilterTimeMs = 0L

  override def filter(predicates: Array[Predicate]): Unit = {
    val started = System.nanoTime()
    try applyRuntimeFilters(predicates)
    finally {
      runtimeFiltersReceived += predicates.length
      runtimeFilterTimeMs += java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
    }
  }

  private def applyRuntimeFilters(predicates: Array[Predicate]): Unit = {
    val keys = PartitionKeys.fromPredicates(predicates.toSeq, fileIndex.partitionSchema, settings.caseSensitive)
    val runtime = if (!bloom.enabled || bloom.mode != PruningMode.Plan) None
    else RuntimeFilters.fromPredicates(predicates.toSeq, readDataSchema, settings.caseSensitive)
    val base = keys.fold(super.partitions) { k =>
      TaskPacking.pack(sparkSession, super.partitions.flatMap(_.files.toSeq).filter(f => k.keeps(f.partitionValues)))
    }
    (runtime, keys) match {
      case (Some(r), _) => runtimePlanned = Some(prune(base, BloomPredicate.allOf(active.toSeq :+ r).get))
      case (None, Some(_)) => runtimePlanned = Some(active.filter(_ => bloom.mode == PruningMode.Plan)
            .fold(unpruned(base))(prune(base, _)))
      case (None, None) =>
    }
  }

  private def plansNothing: Boolean = active.isDefined && bloom.mode == PruningMode.Plan && planned.partitions.isEmpty

  // Batch or row reads, decided as Spark's Parquet factory decides them (schema and settings, the
  // same for every split): otherwise Spark plans the splits and builds the factory (which
  // broadcasts the Hadoop configuration) of every scan node while planning, even of scans a
  // reused exchange replaces; Spark's V1 scan does neither before it runs.
  override def columnarSupportMode(): Scan.ColumnarSupportMode =
    SparkCompat.parquetBatchReads(sparkSession, readPartitionSchema, readDataSchema) match {
      case Some(true) => Scan.ColumnarSupportMode.SUPPORTED
      case Some(false) => Scan.ColumnarSupportMode.UNSUPPORTED
      case None => Scan.ColumnarSupportMode.PARTITION_DEFINED
    }

  // Made once per scan: Spark asks each copy of its scan node (physical rules, adaptive
  // re-planning) while planning, and Spark's Parquet factory broadcasts the Hadoop configuration.
  override def createReaderFactory(): PartitionReaderFactory = readerFactory

  private lazy val readerFactory: PartitionReaderFactory =
    if (plansNothing) NoPartitionsReaderFactory
    else {
      val spark = delegate.createReaderFactory()
      // Spark's factory already broadcast the Hadoop configuration: reuse it rather than broadcast again.
      lazy val conf = SparkCompat.broadcastConf(spark)
        .getOrElse(sparkSession.sparkContext.broadcast(new SerializableConfiguration(delegate.hadoopConf)))
      val skipping = if (bloom.enabled) PageSkipping.of(sparkSession, bloom.sparkPushdown, delegate.pushedFilters.toSeq) else None
      val factory = skipping.fold(spark) { s =>
        val indexed = SparkCompat.withHadoopConf(delegate, PageSkipping.on(delegate.hadoopConf)).createReaderFactory()
        new PageSkippingReaderFactory(spark, indexed, s, conf)
      }
      val judgeEveryFile = active.filter(_ => bloom.mode == PruningMode.Task)
      if (bloom.enabled && (bloom.mode == PruningMode.Plan || judgeEveryFile.isDefined))
        new PlannedReaderFactory(factory, conf, settings, judgeEveryFile)
      else factory
    }

  override def supportedCustomMetrics(): Array[CustomMetric] = BloomMetrics.supported

  // Tasks planned are reported for every scan: a Connect client sees metrics only, not the RDD.
  override def reportDriverMetrics(): Array[CustomTaskMetric] = {
    val pruning = runtimePlanned match {
      case Some(p) => p.counts.toTaskMetrics
      case None if bloom.mode == PruningMode.Plan && active.isDefined => planned.counts.toTaskMetrics
      case None => Array.empty[CustomTaskMetric]
    }
    val runtime = if (runtimeFiltersReceived == 0) Array.empty[CustomTaskMetric]
    else Array(
      BloomMetrics.taskMetric(BloomMetrics.RuntimeFiltersReceived, runtimeFiltersReceived),
      BloomMetrics.taskMetric(BloomMetrics.RuntimeFilterTimeMs, runtimeFilterTimeMs))
    pruning ++ runtime :+ BloomMetrics.taskMetric(BloomMetrics.TasksPlanned, partitions.size.toLong)
  }

  // Computed once: Spark asks on every plan update and UI event, and ParquetScan renders every
  // filter in full each time (an IN of 20,000 literals costs ~50 ms per rendering).
  private lazy val metaData: Map[String, String] = {
    val shown = active match {
      case Some(p) => Map("BloomProbes" -> SparkCompat.abbreviateMetadata(sparkSession, p.toString),
          "BloomPruning" -> bloom.mode.name)
      case None => Map("BloomProbes" -> "[]", "BloomPruning" -> (if (bloom.enabled) "no usable predicate" else "disabled"))
    }
    val inSubquery = if (notes.inSubquery) Some("RuntimeFilters" -> "none: in a subquery's plan") else None
    delegate.getMetaData() ++ shown ++ notes.keySetNote.map("KeySetLookup" -> _) ++ inSubquery + ("Format" -> "bloomparquet")
  }

  override def getMetaData(): Map[String, String] = metaData

  override def equals(obj: Any): Boolean = obj match {
    case o: BloomParquetScan => delegate == o.delegate && predicate == o.predicate && settings == o.settings
    case _ => false
  }

  override def hashCode(): Int = delegate.hashCode()
}

/**
 * A scan's splits after pruning, its counts, the files whose splits were cut ([[JudgedFile]]) and
 * those left for their tasks to judge.
 */
private final case class Planned(partitions: Seq[FilePartition], counts: PruningCounts, judged: Map[String, JudgedFile],
    inTask: Option[TaskJudging])

/** One top-level column by its exact name (Spark's FieldReference is internal; `Expressions.column` splits dots). */
private final case class ColumnReference(name: String) extends NamedReference {
  override def fieldNames(): Array[String] = Array(name)
  override def children(): Array[V2Expression] = Array.empty
  override def describe(): String = s"`${name.replace("`", "``")}`"
  override def toString: String = describe()
}
