package io.bloomparquet

import io.bloomparquet.delta.{DeltaReads, DeltaRetrofit, DeltaTableFilters}
import io.bloomparquet.iceberg.{IcebergReads, IcebergRetrofit}
import io.bloomparquet.sql.{KeptV1Parquet, KeySetPruning, PrunedV1Scans, KeySetSizeNote, SqlFunctions, SqlStrategy, SubqueryScans, UnpaidKeySets, UnprunableOnV1, V2ScanRoute}
import org.apache.spark.sql.SparkSessionExtensions

/**
 * bloomparquet's Spark session extension:
 * `spark.sql.extensions=io.bloomparquet.BloomParquetExtensions` (`bloomparquet.session()`
 * and `configure()` set it). Each registration below says its one job. Order matters where
 * rules of one kind share a batch: they run in the order registered.
 */
class BloomParquetExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit = {
    // SQL table functions (bloomparquet_retrofit, bloomparquet_kernel, ...): what Python does through
    // py4j on a classic session, in a form Spark Connect clients can send.
    SqlFunctions.all(Seq(DeltaRetrofit, IcebergRetrofit)).foreach(extensions.injectTableFunction)
    // Plans those functions' relations.
    extensions.injectPlannerStrategy(_ => SqlStrategy)
    // Drops the runtime filters whose keys are too many for the files' filters to prune.
    extensions.injectPlannerStrategy(_ => UnpaidKeySets)
    // Prunes Iceberg scans' data files (spark.bloomparquet.iceberg.enabled) as Spark plans them: after Iceberg's
    // own planning, which Spark's optimizer runs after every rule an extension can inject.
    extensions.injectPlannerStrategy(IcebergReads.strategy(_))
    // Turns a Delta table's bloom.* properties into filters every writer of the table writes.
    extensions.injectPostHocResolutionRule(DeltaTableFilters(_))
    // Plans catalog tables, SQL on paths and (opted in) plain Parquet through the V2 scan: once, after operator
    // optimization has moved every filter down to its relation, and before V2 scans are built.
    extensions.injectPreCBORule(V2ScanRoute(_))
    // Prunes Delta scans' files and row groups (spark.bloomparquet.delta.enabled), after Delta's own skipping.
    extensions.injectPreCBORule(DeltaReads.rule(_))
    // Makes a V1 scan of a pruned file index read only its kept row groups, with the filters Spark may have.
    extensions.injectColumnar(_ => PrunedV1Scans)
    // Keeps SQL-route relations nothing could prune on Spark's V1 scan, read through our format.
    extensions.injectPreCBORule(KeptV1Parquet(_))
    // Moves format-route relations nothing could prune onto Spark's V1 scan.
    extensions.injectPreCBORule(UnprunableOnV1(_))
    // Gives the V2 scan runtime filters from key sets small enough to pay (joins, IN subqueries).
    extensions.injectPreCBORule(KeySetPruning(_))
    // Notes on the scan why a key set whose size Spark cannot tell got no runtime filter (after KeySetPruning).
    extensions.injectPreCBORule(KeySetSizeNote(_))
    // Lets scans in a subquery's own plan declare no runtime-filter columns: pruning subqueries never nest.
    extensions.injectPreCBORule(_ => SubqueryScans)
  }
}
