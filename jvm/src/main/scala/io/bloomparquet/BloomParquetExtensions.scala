package io.bloomparquet

import io.bloomparquet.delta.{DeltaReads, DeltaRetrofit, DeltaTableFilters}
import io.bloomparquet.sql.{KeptV1Parquet, KeySetPruning, PrunedV1Scans, KeySetSizeNote, SqlFunctions, SqlStrategy, SubqueryScans, UnpaidKeySets, UnprunableOnV1, V2ScanRoute}
import org.apache.spark.sql.SparkSessionExtensions

/**
 * bloomparquet's Spark session extension:
 * `spark.sql.extensions=io.bloomparquet.BloomParquetExtensions` (`bloomparquet.session()`
 * and `configure()` set it). It registers bloomparquet's SQL table functions, which
 * also serve Spark Connect clients: everything Python does through py4j on a
 * classic session has a SQL form here, and [[V2ScanRoute]], which plans catalog
 * tables and SQL on paths (and, opted in, plain Parquet) through the V2 scan, and
 * [[KeySetPruning]], which gives that scan runtime filters from small key sets
 * ([[KeySetSizeNote]] says on the scan when a key set's size is unknown). A relation nothing
 * could prune takes Spark's V1 scan: on the SQL routes it stays there ([[KeptV1Parquet]] reads
 * plain Parquet through our format), on the format route [[UnprunableOnV1]] moves it there. Scans in a subquery's own
 * plan take no runtime filters ([[SubqueryScans]]): pruning subqueries never nest, and a runtime filter whose
 * keys are too many for the files' filters to prune is not planned ([[UnpaidKeySets]]). Delta Lake
 * reads skip files by their bloom filters with `spark.bloomparquet.delta.enabled` ([[DeltaReads]]);
 * a Delta table's `bloom.*` properties make every writer of the table write filters ([[DeltaTableFilters]]).
 */
class BloomParquetExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit = {
    SqlFunctions.all(Seq(DeltaRetrofit)).foreach(extensions.injectTableFunction)
    extensions.injectPlannerStrategy(_ => SqlStrategy)
    extensions.injectPlannerStrategy(_ => UnpaidKeySets)
    extensions.injectOptimizerRule(V2ScanRoute(_))
    extensions.injectPostHocResolutionRule(DeltaTableFilters(_))
    // Delta Lake reads (spark.bloomparquet.delta.enabled): after Delta's own skipping, which it runs first.
    extensions.injectPreCBORule(DeltaReads.rule(_))
    extensions.injectColumnar(_ => PrunedV1Scans)
    extensions.injectPreCBORule(KeptV1Parquet(_))
    extensions.injectPreCBORule(UnprunableOnV1(_))
    extensions.injectPreCBORule(KeySetPruning(_))
    extensions.injectPreCBORule(KeySetSizeNote(_))
    extensions.injectPreCBORule(_ => SubqueryScans)
  }
}
