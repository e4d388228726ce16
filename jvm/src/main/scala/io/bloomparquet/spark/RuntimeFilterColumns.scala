package io.bloomparquet.spark

import io.bloomparquet.options.{PruningMode, ReadSettings}
import io.bloomparquet.planning.BloomColumns
import io.bloomparquet.pruning.{CatalystPredicates, PartitionKeys}
import io.bloomparquet.schema.ColumnResolver
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex
import org.apache.spark.sql.types.StructField

/**
 * The columns a join's keys can prune at runtime, i.e. what a scan declares to Spark's dynamic
 * pruning (and [[io.bloomparquet.sql.KeySetPruning]] plants filters on): partition columns (files
 * of other partitions are dropped, as Spark's V1 scan does) and, in plan mode, data columns that
 * carry bloom filters in the table's files ([[BloomColumns]]). A filter on any other column would
 * cost a subquery, a broadcast and a bigger plan, and prune nothing.
 */
object RuntimeFilterColumns {

  def partition(fields: Seq[StructField]): Seq[StructField] = fields.filter(f => PartitionKeys.supported(f.dataType))

  def data(fields: Seq[StructField], fileIndex: PartitioningAwareFileIndex, conf: => Configuration,
      settings: ReadSettings): Seq[StructField] = {
    val probeable = if (!settings.bloom.enabled || settings.bloom.mode != PruningMode.Plan) Seq.empty
    else fields.filter(f => CatalystPredicates.supported(f.dataType))
    if (probeable.isEmpty) probeable
    else {
      val filtered = BloomColumns.in(fileIndex.allFiles(), conf, settings.bloom.useCache)
      probeable.filter(f => filtered.exists(ColumnResolver.sameName(_, f.name, settings.caseSensitive)))
    }
  }
}
