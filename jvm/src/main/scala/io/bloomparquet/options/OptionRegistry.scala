package io.bloomparquet.options

import io.bloomparquet.options.OptionKind._
import io.bloomparquet.options.Scope._

/**
 * Every option of bloomparquet, in one place: read, write and retrofit options
 * and the process-wide Spark confs. Validation ([[OptionValidator]]), the
 * typed views ([[BloomReadOptions]], [[io.bloomparquet.write.BloomWriteOptions]]), the Python mirror
 * (`python/bloomparquet/_options.json`) and the options tables of
 * the docs pages all come from here (`bin/gen-options` regenerates the last two).
 */
object OptionRegistry {
  // --- read ---
  val Enabled: OptionSpec[Boolean] = OptionSpec("bloom.enabled", Bool, Some(true), Seq(Read),
    "prune row groups and files with bloom filters and statistics at all")
  val Mode: OptionSpec[PruningMode] = OptionSpec("bloom.mode", new OneOf(PruningMode.all, (_: PruningMode).name),
    Some(PruningMode.Plan),
    Seq(Read),
    "plan: prune on the driver before any task starts (no task for a file with no surviving row group); " +
      "task: prune inside each task, so planning reads no footer however many files")
  val Cache: OptionSpec[Boolean] = OptionSpec("bloom.cache", Bool, Some(true), Seq(Read),
    "use the JVM's footer and filter cache (sized by spark.bloomparquet.cache.maxMb) and the table digests it holds " +
      "(a table's digest pointer is read again after 30 s); false: this query neither reads nor fills them",
    deprecatedKeys = Seq(DeprecatedKey("bloom.cacheMb", IntRange(0, 1L << 20),
        "0 means bloom.cache=false; the cache size is now spark.bloomparquet.cache.maxMb and other values do not " +
          "change it")(mb => (mb.replace("_", "").toLong != 0).toString)))
  val PlanningParallelism: OptionSpec[Long] = OptionSpec("bloom.planningParallelism", IntRange(0, 1024), Some(0L),
    Seq(Read),
    "files whose footer and filters are read at once while planning (at most spark.bloomparquet.planning.threads); " +
      "0 = the file system's: 64 on object stores, where planning waits on requests, 16 elsewhere")
  val EarlyStop: OptionSpec[Boolean] = OptionSpec("bloom.earlyStop", Bool, Some(true), Seq(Read),
    "stop reading and probing bloom filters for the rest of a scan once the filters read so far (their bit fill " +
      "against the number of values probed) show that less than 1 % of row groups could be pruned; the row groups " +
      "left are kept (statistics still prune), counted as bloomRowGroupsUnprobed")
  val Dictionaries: OptionSpec[Boolean] = OptionSpec("bloom.dictionaries", Bool, Some(true), Seq(Read),
    "where a row group's chunk has no bloom filter but all its data pages are dictionary-encoded (the footer's " +
      "encoding stats say so), plan-time pruning reads its dictionary page (up to 2 MiB) and prunes the row group when " +
      "no equality, <=> or IN value is in it, with Spark's equality (string bytes, both zeros, timestamp units): the " +
      "skipping Spark's reader does in tasks, done before any task starts; counted as bloomRowGroupsPrunedByDictionary")
  val Digest: OptionSpec[Boolean] = OptionSpec("bloom.digest", Bool, Some(true), Seq(Read),
    "plan-time pruning first asks the table's bloom digest (built by `bloomparquet digest`, kept in the table's " +
      "_bloomparquet folder), when it has one: files it covers at their current version whose row groups it rules " +
      "out are pruned with no read of their own, the others judged on their own as always (decisions are the same " +
      "either way); false: judge every file on its own")
  val DigestSurvivors: OptionSpec[PruningMode] = OptionSpec("bloom.digestSurvivors",
    new OneOf(PruningMode.all, (_: PruningMode).name), Some(PruningMode.Task), Seq(Read),
    "where the files the table's bloom digest keeps (covered at their current version, some row group not ruled " +
      "out) are judged: task = in the tasks that read them, as bloom.mode=task does (planning reads nothing of " +
      "them: a lookup plans with the digest's few requests however many files the table has; such a file gets " +
      "Spark's own splits, each task reading its footer as Spark's reader would); plan = on the driver, as files " +
      "the digest does not cover (their splits cut to the row groups kept before tasks are packed). Format " +
      "bloomparquet and opted-in parquet scans; Delta Lake reads judge them on the driver")
  val FilterReadsKey: OptionSpec[FilterReads] = OptionSpec("bloom.filterReads",
    new OneOf(FilterReads.all, (_: FilterReads).name), Some(FilterReads.Auto), Seq(Read),
    "how a probed bloom filter is read: auto = whole, or only its header and the 32-byte blocks the probed values " +
      "hash to, whichever a cost model (requests x latency + bytes / bandwidth, per file system scheme) says takes " +
      "less time; whole = always the whole filter; blocks = the blocks wherever the footer gives the filter's length " +
      "(decisions are the same every way)")
  val ReadLatencyMicros: OptionSpec[Long] = OptionSpec("bloom.readCost.latencyMicros", IntRange(0, 100000000L), Some(0L),
    Seq(Read),
    "the cost model's time per read request, in microseconds (bloom.filterReads=auto); 0 = the file " +
      "system's default: local 2, HDFS 1,000, object stores 20,000, any other 5,000; at 10 or less requests do " +
      "not show in planning's time, and planning reads the fewest bytes: tails of the footers' size, exact ranges")
  val ReadMegabytesPerSecond: OptionSpec[Long] = OptionSpec("bloom.readCost.megabytesPerSecond", IntRange(0, 1000000L),
    Some(0L), Seq(Read),
    "the cost model's bandwidth of one planning read, in MB/s; 0 = the file system's default: " +
      "local 8,000, HDFS 200, object stores and any other 100")
  val ReadDriverMegabytesPerSecond: OptionSpec[Long] = OptionSpec("bloom.readCost.driverMegabytesPerSecond",
    IntRange(0, 1000000L), Some(0L), Seq(Read),
    "the cost model's bandwidth of all planning reads at once (the driver's network, or an executor's in a " +
      "planning job), in MB/s, shared by the files read at once (bloom.planningParallelism); 0 = the file " +
      "system's default: HDFS and object stores 1,000, local and any other unlimited")
  val ReadParallelRanges: OptionSpec[Long] = OptionSpec("bloom.readCost.parallelRanges", IntRange(0, 1024), Some(0L),
    Seq(Read),
    "ranges of one file a planning read fetches at once: above 1, a file's filter blocks are read in one " +
      "vectored read (Hadoop's readVectored, Spark 4.0 on), costing one request's latency per this many ranges; " +
      "1 = one range after the other; 0 = the file system's default: S3A 4 (its fs.s3a.vectored.active.ranged.reads), " +
      "any other 1")
  val SparkPushdownKey: OptionSpec[SparkPushdown] = OptionSpec("bloom.sparkPushdown",
    new OneOf(SparkPushdown.all, (_: SparkPushdown).name), Some(SparkPushdown.Safe), Seq(Read),
    "filters Spark's own Parquet pushdown also gets inside tasks (ours prune with every filter regardless): " +
      "safe = null tests, =, <=>, IN, comparisons and string starts/ends-with/contains tests with literals (and " +
      "AND/OR/NOT of them) on columns without a dot in their path, where the literal is one parquet-java judges as " +
      "Spark does: any on boolean, integral, date, decimal and binary columns; strings whose literal holds no " +
      "U+FFFD (stored bytes that are not UTF-8 never match the literal Spark passes); timestamps in whole " +
      "milliseconds, in =, <=> and IN any literal outside a NOT, and a finer one in comparisons rounded outwards " +
      "to whole milliseconds (a file storing milliseconds gets the literal floored); float/double only in =, <=> and IN " +
      "outside a NOT, with literals other than NaN (statistics leave NaN out), a zero as both zeros (dictionaries " +
      "compare bits); page skipping by column index only in splits whose column and offset indexes agree with " +
      "their footer (writers have shipped column indexes that mark every page all-null, losing every row); " +
      "all = everything Spark would push, and page skipping by every column index, with those risks; none = nothing")

  // --- write and retrofit ---
  val Columns: OptionSpec[Seq[String]] = OptionSpec("bloom.columns", ColumnList, None, Seq(Write, Retrofit, DeltaTable),
    "the columns to write bloom filters for", defaultDoc = "none: plain Parquet")
  val Fpp: OptionSpec[Double] = OptionSpec("bloom.fpp", Probability, Some(0.01), Seq(Write, Retrofit, DeltaTable),
    "false-positive probability of every filter")
  val ColumnFpp: OptionSpec[Double] = OptionSpec("bloom.fpp.<column>", Probability, None, Seq(Write, DeltaTable),
    "false-positive probability of one column's filters", defaultDoc = "bloom.fpp")
  val ColumnNdv: OptionSpec[Long] = OptionSpec("bloom.ndv.<column>", IntRange(1, Long.MaxValue), None, Seq(Write, DeltaTable),
    "distinct values per row group: size every filter of the column for it instead of counting",
    defaultDoc = "counted")
  val SizingKey: OptionSpec[Sizing] = OptionSpec("bloom.sizing", new OneOf(Sizing.all, (_: Sizing).name),
    Some(Sizing.Exact), Seq(Write),
    "exact: count each row group's distinct values, then build the filter; fold: insert into one large " +
      "filter, estimate the count from its fill, fold it once")
  val FoldMaxNdv: OptionSpec[Long] = OptionSpec("bloom.fold.maxNdv", IntRange(1, Long.MaxValue),
    Some(BloomColumn.DefaultFoldMaxNdv), Seq(Write), "fold only: distinct values the initial filter is sized for")
  val Overwrite: OptionSpec[Boolean] = OptionSpec("bloom.overwrite", Bool, Some(false), Seq(Retrofit),
    "replace the filters chunks already have (otherwise they are kept)")

  // --- process-wide Spark confs ---
  val CacheMaxMb: OptionSpec[Long] = OptionSpec("spark.bloomparquet.cache.maxMb", IntRange(0, 1L << 20), Some(256L),
    Seq(Session),
    "MiB of footers and filters cached per JVM (driver, and executors in task mode) across queries, " +
      "keyed by path, length, modification time and the version the file system offers (etag, inode and ctime, " +
      "HDFS file id); 0: nothing is cached")
  val PlanningThreads: OptionSpec[Long] = OptionSpec("spark.bloomparquet.planning.threads", IntRange(1, 1024),
    Some(64L), Seq(Session),
    "threads per JVM reading footers and filters while planning, shared by all queries " +
      "(each uses at most its bloom.planningParallelism)")
  val PlanningDistributed: OptionSpec[PlanningPlaceSetting] = OptionSpec("spark.bloomparquet.planning.distributed",
    new OneOf(PlanningPlaceSetting.all, (_: PlanningPlaceSetting).name), Some(PlanningPlaceSetting.Auto), Seq(Session),
    "where plan-time pruning reads a scan's footers and filters: auto = by a Spark job on the executors when the " +
      "reads to issue (files not in the driver's cache, priced by the bloom.readCost.* model: requests x latency + " +
      "bytes / bandwidth) would take less time there than on the driver, launching the job " +
      "(spark.bloomparquet.planning.jobMillis) included; never on a local[n] master, whose executors are the driver; " +
      "driver = always on the driver; executors = always in a job",
    deprecatedKeys = Seq(DeprecatedKey("spark.bloomparquet.planning.distributedThreshold", IntRange(0, Int.MaxValue),
        "a file count no longer places planning: 0 means driver, any other count auto")(n =>
        if (n.replace("_", "").trim.toLong == 0) "driver" else "auto")))
  val PlanningJobMillis: OptionSpec[Long] = OptionSpec("spark.bloomparquet.planning.jobMillis",
    IntRange(0, 3600000L), Some(1000L), Seq(Session),
    "what spark.bloomparquet.planning.distributed=auto counts for launching a planning job and collecting its " +
      "outcomes, in milliseconds (measured: 0.2-0.3 s on an idle local-cluster of 2 executors, 0.5 s for its first " +
      "job; the default allows for a busy cluster's scheduler)")

  // --- session confs of the SQL extension (BloomParquetExtensions), read per query ---
  val SqlPlanTimePruning: OptionSpec[Boolean] = OptionSpec("spark.bloomparquet.sql.planTimePruning", Bool, Some(true),
    Seq(Sql),
    "catalog tables USING bloomparquet, bloomparquet.`path` SQL and views over them plan through the V2 scan " +
      "(pruning before tasks start, metrics, runtime filters from joins); false: Spark's V1 file route, which prunes " +
      "inside each task")
  val SqlParquet: OptionSpec[Boolean] = OptionSpec("spark.bloomparquet.parquet.enabled", Bool, Some(false), Seq(Sql),
    "plain Parquet reads (spark.read.parquet, USING parquet tables, Hive Parquet tables Spark converts) plan through " +
      "bloomparquet's scan too, with its default read options; false: Spark's own Parquet scan")

  val DeltaEnabled: OptionSpec[Boolean] = OptionSpec("spark.bloomparquet.delta.enabled", Bool, Some(false), Seq(Sql),
    "Delta Lake reads (format delta, delta.`path` SQL, Delta catalog tables, time travel) skip, before any task " +
      "starts, the files Delta's partition and statistics skipping kept whose bloom filters rule out every row " +
      "group, and their tasks read only the row groups the filters kept; refused on a Spark minor Delta Lake has " +
      "no release for")

  val IcebergEnabled: OptionSpec[Boolean] = OptionSpec("spark.bloomparquet.iceberg.enabled", Bool, Some(false), Seq(Sql),
    "Apache Iceberg reads (catalog tables, format iceberg, time travel, branches) skip, before any task starts, the " +
      "data files Iceberg's own planning kept whose bloom filters (matched by field id) rule out every row group; " +
      "refused on a Spark minor Iceberg publishes no Spark runtime for")

  val KeySetMaxBytes: OptionSpec[Long] = OptionSpec("spark.bloomparquet.keySet.maxBytes", IntRange(0, Long.MaxValue),
    Some(10L << 20), Seq(Sql),
    "joins and IN (subquery) whose key side is estimated at most this many bytes give the " +
      "bloomparquet scan on the other side a runtime filter with the keys, where Spark's dynamic pruning plans none " +
      "(no selective predicate on the key side); 0: off")

  val all: Seq[OptionSpec[_]] = Seq(Enabled, Mode, Cache, PlanningParallelism, EarlyStop, Dictionaries, Digest, DigestSurvivors,
    FilterReadsKey,
    ReadLatencyMicros,
    ReadMegabytesPerSecond, ReadDriverMegabytesPerSecond, ReadParallelRanges, SparkPushdownKey, Columns, Fpp,
    ColumnFpp, ColumnNdv, SizingKey, FoldMaxNdv, Overwrite, CacheMaxMb, PlanningThreads, PlanningDistributed,
    PlanningJobMillis,
    SqlPlanTimePruning, SqlParquet, DeltaEnabled, IcebergEnabled, KeySetMaxBytes)

  def inScope(scope: Scope): Seq[OptionSpec[_]] = all.filter(_.scopes.contains(scope))
}
