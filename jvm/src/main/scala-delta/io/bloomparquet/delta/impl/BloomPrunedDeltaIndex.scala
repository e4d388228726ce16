package io.bloomparquet.delta.impl

import java.util.Objects

import io.bloomparquet.options.SparkPushdown
import io.bloomparquet.pruning.BloomPredicate
import io.bloomparquet.spark.KeptRowGroups
import io.bloomparquet.spark.metrics.{PrunedFileIndex, PruningCounts}
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Expression, Literal}
import org.apache.spark.sql.delta.{DeltaLog, Snapshot}
import org.apache.spark.sql.delta.actions.AddFile
import org.apache.spark.sql.delta.files.TahoeBatchFileIndex

/**
 * The files of a Delta scan that Delta's own skipping kept and bloom filters did not rule out,
 * as the index Delta itself reads fixed file lists through (its DML commands do): deletion
 * vectors, column mapping, partition values and row tracking are applied by Delta's reader as
 * for any of its scans. EXPLAIN names it in the scan's `Location`; `scan_metrics` finds its counts.
 * Files some of whose row groups were pruned carry those row groups (`keptRowGroups`), which the
 * physical plan's scan reads alone (`sql.PrunedV1Scans`).
 */
final class BloomPrunedDeltaIndex(spark: SparkSession, files: Seq[AddFile], log: DeltaLog, path: Path,
    snapshot: Snapshot, val predicate: BloomPredicate, val pruningCounts: PruningCounts,
    val keptRowGroups: Map[String, KeptRowGroups], val gapBytes: Long, val sparkPushdown: SparkPushdown)
    extends TahoeBatchFileIndex(spark, "read", files, log, path, snapshot) with PrunedFileIndex {

  // Delta's list filter builds a DataFrame of the files; with no partition filter (or `true` alone, as
  // Delta's deletion-vector planning asks) there is nothing to drop.
  override def matchingFiles(partitionFilters: Seq[Expression], dataFilters: Seq[Expression]): Seq[AddFile] =
    if (partitionFilters.forall(_ == Literal.TrueLiteral)) addFiles else super.matchingFiles(partitionFilters, dataFilters)

  private def identity: (Path, Long, Seq[String], BloomPredicate) = (path, snapshot.version, addFiles.map(_.path), predicate)

  // Equal scans of one table stay equal (exchange reuse, the same scan twice in a plan).
  override def equals(other: Any): Boolean = other match {
    case o: BloomPrunedDeltaIndex => o.identity == identity
    case _ => false
  }

  override def hashCode(): Int = Objects.hash(path, Long.box(snapshot.version), predicate)

  override def toString: String =
    s"BloomPrunedDeltaIndex($path, version ${snapshot.version}, ${addFiles.size} of ${pruningCounts.filesTotal} " +
      s"files (row groups cut in ${keptRowGroups.size}), bloom: $predicate)"
}
