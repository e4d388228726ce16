package io.bloomparquet.compat

import scala.annotation.nowarn
import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.api.WriteSupport
import org.apache.spark.SparkEnv
import org.apache.spark.bloomparquet.DriverHeldRdd
import org.apache.spark.sql.bloomparquet.SourceFilterTranslation
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.{FunctionIdentifier, InternalRow}
import org.apache.spark.sql.catalyst.expressions.{AttributeReference, Expression, ExpressionInfo}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Subquery}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.connector.catalog.Table
import org.apache.spark.sql.connector.read.PartitionReaderFactory
import org.apache.spark.sql.connector.write.{LogicalWriteInfo, Write}
import org.apache.spark.sql.execution.{LogicalRDD, QueryExecution, WholeStageCodegenExec}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation
import org.apache.spark.sql.execution.datasources.v2.parquet.{ParquetPartitionReaderFactory, ParquetScan, ParquetScanBuilder, ParquetTable, ParquetWrite}
import org.apache.spark.sql.execution.datasources.parquet.{ParquetUtils, ParquetWriteSupport}
import org.apache.spark.sql.execution.datasources.{FileFormat, FilePartition, PartitionedFile, PartitioningAwareFileIndex}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StringType, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.util.SerializableConfiguration

/**
 * The compat seam: every call into Spark internals (case-class constructors
 * and copies, `sessionState`, private-ish helpers) and nothing else, so a new
 * Spark version is a change here (or in a per-version shim behind it) only.
 * What is written here compiles on every supported minor; what differs between
 * minors is in `SparkShims`, `ParquetShims` and `ParquetFilterShims`, one copy per shim folder
 * (`jvm/src/main/scala-spark-*`). Nothing of ours is imported here.
 */
object SparkCompat {

  // --- read path: Spark's Parquet scan, splits and partitions ---

  def newParquetScanBuilder(spark: SparkSession, fileIndex: PartitioningAwareFileIndex, schema: StructType,
      dataSchema: StructType, options: CaseInsensitiveStringMap): ParquetScanBuilder =
    ParquetScanBuilder(spark, fileIndex, schema, dataSchema, options)

  /**
   * Whether Spark's Parquet reader factory reads `partitionSchema ++ readDataSchema` in batches:
   * its own test (4.0-4.3: vectorized reads of the schema supported, whole-stage codegen on, not
   * too many fields), the same for every split, so a scan can say it without building one.
   */
  def parquetBatchReads(spark: SparkSession, partitionSchema: StructType, readDataSchema: StructType): Option[Boolean] =
    // 4.3 may read variant columns through a schema of their extracted fields: left to Spark's factory.
    if (readDataSchema.fields.exists(f => hasVariant(f.dataType))) None
    else {
      val conf = sqlConf(spark)
      val result = StructType(partitionSchema.fields ++ readDataSchema.fields)
      Some(ParquetUtils.isBatchReadSupportedForSchema(conf, result) && conf.wholeStageEnabled &&
        !WholeStageCodegenExec.isTooManyFields(conf, result))
    }

  private def hasVariant(t: DataType): Boolean = anyType(t)(SparkShims.isVariant)

  /** Whether `t` or a type nested in it (struct fields, array elements, map keys and values) is `p`. */
  def anyType(t: DataType)(p: DataType => Boolean): Boolean = p(t) ||
    (t match {
      case s: StructType => s.fields.exists(f => anyType(f.dataType)(p))
      case a: ArrayType => anyType(a.elementType)(p)
      case m: MapType => anyType(m.keyType)(p) || anyType(m.valueType)(p)
      case _ => false
    })

  def withRange(file: PartitionedFile, start: Long, length: Long): PartitionedFile =
    file.copy(start = start, length = length)

  /** `file` whole as it is now: another version of the file than the one listed. */
  def wholeFile(file: PartitionedFile, length: Long, modificationTime: Long): PartitionedFile =
    file.copy(start = 0, length = length, fileSize = length, modificationTime = modificationTime)

  /** The split's file as a path string (with its length and modification time, the file's identity). */
  def filePath(file: PartitionedFile): String = EncodedPaths.pathText(file.urlEncodedPath)

  /** Spark's Parquet scan `scan` whose reader factory reads with `conf`. */
  def withHadoopConf(scan: ParquetScan, conf: Configuration): ParquetScan = scan.copy(hadoopConf = conf)

  /** `scan` with `filters` as the source filters its reader factory converts against each file's schema. */
  def withPushedFilters(scan: ParquetScan, filters: Seq[Filter]): ParquetScan = scan.copy(pushedFilters = filters.toArray)

  /** A Catalyst data filter as the source filter a file scan builder hands its format (nested columns too). */
  def sourceFilter(e: Expression): Option[Filter] = SourceFilterTranslation.of(e)

  def newFilePartition(index: Int, files: Array[PartitionedFile]): FilePartition = FilePartition(index, files)

  /** The Hadoop configuration Spark's Parquet reader factory has already broadcast, if `factory` is one. */
  def broadcastConf(factory: PartitionReaderFactory): Option[Broadcast[SerializableConfiguration]] = factory match {
    case f: ParquetPartitionReaderFactory => Some(f.broadcastedConf)
    case _ => None
  }

  /** What Spark's own packing of `files` would produce: (max split bytes, task count). */
  def sparkPacking(spark: SparkSession, files: Seq[PartitionedFile], openCost: Long): (Long, Int) = {
    val maxSplitBytes = SparkShims.maxSplitBytes(spark, files.map(_.length + openCost).sum)
    (maxSplitBytes, FilePartition.getFilePartitions(spark, files.sortBy(-_.length), maxSplitBytes).size)
  }

  /** Spark's minimum partition count for a file scan (its `leafNodeDefaultParallelism` is private[sql]). */
  def minFilePartitions(spark: SparkSession): Int = {
    val conf = sqlConf(spark)
    conf.filesMinPartitionNum.orElse(conf.getConf(SQLConf.LEAF_NODE_DEFAULT_PARALLELISM))
      .getOrElse(spark.sparkContext.defaultParallelism)
  }

  // --- write path: Spark's Parquet write and table ---

  /** Spark's row-to-Parquet write support, which the writer wraps to hash what it writes. */
  def newParquetWriteSupport(): WriteSupport[InternalRow] = new ParquetWriteSupport()

  def newParquetWrite(paths: Seq[String], formatName: String, supportsDataType: DataType => Boolean,
      info: LogicalWriteInfo): Write = ParquetWrite(paths, formatName, supportsDataType, info)

  /** Spark's Parquet table, asked only which data types Parquet supports. */
  def parquetSupportsDataType(spark: SparkSession, options: CaseInsensitiveStringMap, paths: Seq[String],
      schema: Option[StructType], fallback: Class[_ <: FileFormat]): DataType => Boolean = {
    val table = ParquetTable("parquet", spark, options, paths, schema, fallback)
    table.supportsDataType
  }

  // --- session state ---

  /** The session's SQL conf (`FileFormat.getSqlConf` does not exist in every 4.x). */
  /** A scan's options over the table's (Spark 4's `FileTable.mergedOptions`; 3.5 has none). */
  def withTableOptions(table: CaseInsensitiveStringMap, scan: CaseInsensitiveStringMap): CaseInsensitiveStringMap =
    new CaseInsensitiveStringMap((table.asCaseSensitiveMap.asScala ++ scan.asCaseSensitiveMap.asScala).asJava)

  /** A write's options over the table's (Spark 4's `FileTable.mergedWriteInfo`). */
  def withTableOptions(table: CaseInsensitiveStringMap, info: LogicalWriteInfo): LogicalWriteInfo =
    new LogicalWriteInfo { // Spark's LogicalWriteInfoImpl is private[sql] in 3.5
      private val merged = withTableOptions(table, info.options)
      override def options: CaseInsensitiveStringMap = merged
      override def queryId: String = info.queryId
      override def schema: StructType = info.schema
      override def rowIdSchema: java.util.Optional[StructType] = info.rowIdSchema
      override def metadataSchema: java.util.Optional[StructType] = info.metadataSchema
    }

  /** Does Spark compare strings of `t` byte by byte (UTF8_BINARY: what a filter's hashes can answer)? */
  def isBinaryCollation(t: StringType): Boolean = SparkShims.isBinaryCollation(t)

  def sqlConf(spark: SparkSession): SQLConf = spark.sessionState.conf

  /** The session conf of the plan being optimized or planned (the thread's active one). */
  def activeSqlConf: SQLConf = SQLConf.get

  def newHadoopConf(spark: SparkSession): Configuration = spark.sessionState.newHadoopConf()

  /** The session's Hadoop configuration with a source's options on top (as Spark's file sources build theirs). */
  def newHadoopConf(spark: SparkSession, options: Map[String, String]): Configuration =
    spark.sessionState.newHadoopConfWithOptions(options)

  def caseSensitive(spark: SparkSession): Boolean = sqlConf(spark).caseSensitiveAnalysis

  /** With field-id matching on, files are matched by id, not by the names we resolve. */
  def fieldIdReadEnabled(spark: SparkSession): Boolean = sqlConf(spark).parquetFieldIdReadEnabled

  /**
   * Whether Spark's Parquet reader matches `readSchema`'s columns by field id: the conf is on (Delta
   * Lake's extension turns it on for every session) and the schema carries ids (`parquet.field.id`);
   * otherwise it matches by name, as our probes do.
   */
  def matchesByFieldId(fieldIdRead: Boolean, readSchema: StructType): Boolean =
    fieldIdRead && org.apache.spark.sql.execution.datasources.parquet.ParquetUtils.hasFieldIds(readSchema)

  def parquetOutputTimestampType(spark: SparkSession): String = sqlConf(spark).parquetOutputTimestampType.toString

  /** `value` cut to `spark.sql.maxMetadataStringLength`, as Spark cuts its own scan metadata. */
  def abbreviateMetadata(spark: SparkSession, value: String): String = {
    val max = math.max(sqlConf(spark).maxMetadataStringLength, 4)
    if (value.length <= max) value else value.take(max - 3) + "..."
  }

  /** A Spark conf of this JVM's SparkEnv (executors; the driver's SparkContext conf), if any. */
  def envConf(key: String): Option[String] = Option(SparkEnv.get).flatMap(_.conf.getOption(key))

  /**
   * The confs this JVM's process-wide state reads: the calling thread's session (or the default one) on a
   * driver, else the SparkEnv's (an executor, which has no session).
   */
  def processConf(): String => Option[String] =
    SparkSession.getActiveSession.orElse(SparkSession.getDefaultSession) match {
      case Some(spark) => spark.conf.getOption
      case None => envConf
    }

  // --- SQL extension points ---

  /** A V2 relation over `table` whose output is `output` (the V1 relation's attributes, so the plan above resolves). */
  def v2Relation(table: Table, output: Seq[AttributeReference], options: CaseInsensitiveStringMap): LogicalPlan =
    DataSourceV2Relation.create(table, None, None, options).copy(output = output)

  /**
   * `plan` optimized on its own, as Spark optimizes a subquery's plan: a join side seen by a
   * pre-CBO rule is not through V2 pushdown yet, and a dynamic pruning filter's plan is planned as is.
   */
  def optimizeSubquery(spark: SparkSession, plan: LogicalPlan): LogicalPlan =
    spark.sessionState.optimizer.execute(Subquery(plan, correlated = false)) match {
      case Subquery(child, _) => child
      case other => other
    }

  /** Spark's dynamic pruning filter: `key IN (keyColumn of keys)`, planned (and run) by Spark. */
  def dynamicPruningSubquery(key: Expression, keys: LogicalPlan, keyColumns: Seq[Expression],
      onlyInBroadcast: Boolean): Expression =
    SparkShims.dynamicPruningSubquery(key, keys, keyColumns, onlyInBroadcast)

  /** `plan`'s rows, computed now (while another query is planned: no execution of its own). */
  def collectRows(spark: SparkSession, plan: LogicalPlan): Seq[InternalRow] =
    spark.sessionState.executePlan(plan).executedPlan.executeCollect().toSeq

  /** Is `leaf` Spark's cache of a plan (`df.cache()`)? */
  def isCached(leaf: LogicalPlan): Boolean = leaf.isInstanceOf[org.apache.spark.sql.execution.columnar.InMemoryRelation]

  /**
   * The bytes a leaf's rows take in the driver, known without a job: an RDD relation over
   * `parallelize`d data (PySpark's `createDataFrame` from a list or pandas); None for any other.
   */
  def driverHeldBytes(leaf: LogicalPlan, limit: Long): Option[Long] = leaf match {
    case r: LogicalRDD if !r.isStreaming => DriverHeldRdd.bytes(r.rdd, limit)
    case _ => None
  }

  /** What `SparkSessionExtensions.injectTableFunction` takes. */
  type TableFunction = (FunctionIdentifier, ExpressionInfo, Seq[Expression] => LogicalPlan)

  // The 5-string constructor is deprecated but stable; its replacement validates 11 formatted strings.
  @nowarn("cat=deprecation")
  def tableFunction(name: String, usage: String, builder: Seq[Expression] => LogicalPlan): TableFunction =
    (FunctionIdentifier(name), new ExpressionInfo("io.bloomparquet", null, name, usage, ""), builder)

  def toAttributes(schema: StructType): Seq[AttributeReference] = DataTypeUtils.toAttributes(schema)

  /** The executed plan of a classic (non-Connect) Dataset. */
  def queryExecution(df: org.apache.spark.sql.Dataset[_]): QueryExecution = SparkShims.queryExecution(df)
}
