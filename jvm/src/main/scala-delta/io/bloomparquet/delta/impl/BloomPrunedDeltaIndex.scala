package io.bloomparquet.delta.impl

import java.util.Objects

import io.bloomparquet.compat.ComputedKeySets
import io.bloomparquet.options.SparkPushdown
import io.bloomparquet.planning.KeptRowGroups
import io.bloomparquet.pruning.BloomPredicate
import io.bloomparquet.spark.metrics.{PrunedFileIndex, PruningCounts}
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Expression, Literal}
import org.apache.spark.sql.delta.{DeltaLog, Snapshot}
import org.apache.spark.sql.delta.actions.AddFile
import org.apache.spark.sql.delta.files.TahoeBatchFileIndex
import org.apache.spark.sql.execution.datasources.PartitionDirectory

/**
 * The files of a Delta scan that Delta's own skipping kept and bloom filters did not rule out,
 * as the index Delta itself reads fixed file lists through (its DML commands do): deletion
 * vectors, column mapping, partition values and row tracking are applied by Delta's reader as
 * for any of its scans. EXPLAIN names it in the scan's `Location`; `scan_metrics` finds its counts.
 * Files some of whose row groups were pruned are listed with those row groups, which the physical
 * plan's scan reads alone (`sql.PrunedV1Scans`).
 *
 * An index that `prunesAtRuntime` prunes again when its scan lists its files, with the key sets
 * Spark computed by then (a join's other side, an `IN (subquery)`): `narrowing` gives the index
 * of the files that planning's conditions and those key sets keep, of which only files this one
 * holds are read (never more than planning kept).
 */
final class BloomPrunedDeltaIndex(spark: SparkSession, files: Seq[AddFile], log: DeltaLog, path: Path,
    snapshot: Snapshot, val predicate: BloomPredicate, plannedCounts: PruningCounts,
    private val plannedRowGroups: Map[String, KeptRowGroups], val gapBytes: Long, val sparkPushdown: SparkPushdown,
    narrowing: Seq[Expression] => Option[BloomPrunedDeltaIndex], val prunesAtRuntime: Boolean = false,
    computed: Option[ComputedKeySets] = None)
    extends TahoeBatchFileIndex(spark, "read", files, log, path, snapshot) with PrunedFileIndex {

  override def filesCut: Int = plannedRowGroups.size
  @volatile private var narrowed: Option[BloomPrunedDeltaIndex] = None

  override def pruningCounts: PruningCounts = narrowed.fold(plannedCounts)(_.pruningCounts)
  override def anyFile: Option[String] = addFiles.headOption.map(f => absolutePath(f.path).toString)

  /** This index, pruning again at listing with the key sets its scan's data filters carry. */
  def atRuntime: BloomPrunedDeltaIndex =
    new BloomPrunedDeltaIndex(spark, addFiles, log, path, snapshot, predicate, plannedCounts, plannedRowGroups, gapBytes,
      sparkPushdown, narrowing, prunesAtRuntime = true)

  override def withKeySets(keySets: ComputedKeySets): BloomPrunedDeltaIndex =
    new BloomPrunedDeltaIndex(spark, addFiles, log, path, snapshot, predicate, plannedCounts, plannedRowGroups, gapBytes,
      sparkPushdown, narrowing, prunesAtRuntime, Some(keySets))

  // Delta's list filter builds a DataFrame of the files; with no partition filter (or `true` alone, as
  // Delta's deletion-vector planning asks) there is nothing to drop.
  override def matchingFiles(partitionFilters: Seq[Expression], dataFilters: Seq[Expression]): Seq[AddFile] = {
    val keySets = computed.fold(Seq.empty[Expression])(_.keySets)
    val listed = (if (keySets.isEmpty) None else narrowing(keySets)).fold(this) { n =>
      narrowed = Some(n)
      n
    }
    val planned = addFiles.map(_.path).toSet
    listed.filesMatching(partitionFilters).filter(f => planned(f.path))
  }

  // Delta's listing of what `matchingFiles` keeps; each file cut carries its kept row groups to its splits
  // (those of the narrowed index, where the key sets narrowed it: `narrowed` is set by then).
  override def listFiles(partitionFilters: Seq[Expression], dataFilters: Seq[Expression]): Seq[PartitionDirectory] = {
    val listed = super.listFiles(partitionFilters, dataFilters)
    val kept = narrowed.fold(plannedRowGroups)(_.plannedRowGroups)
    KeptRowGroups.OfListedFile.attach(listed)(kept.get)
  }

  private def filesMatching(partitionFilters: Seq[Expression]): Seq[AddFile] =
    if (partitionFilters.forall(_ == Literal.TrueLiteral)) addFiles else super.matchingFiles(partitionFilters, Nil)

  private def identity: (Path, Long, Seq[String], BloomPredicate, Boolean, Option[ComputedKeySets]) =
    (path, snapshot.version, addFiles.map(_.path), predicate, prunesAtRuntime, computed)

  // Equal scans of one table stay equal (exchange reuse, the same scan twice in a plan).
  override def equals(other: Any): Boolean = other match {
    case o: BloomPrunedDeltaIndex => o.identity == identity
    case _ => false
  }

  override def hashCode(): Int = Objects.hash(path, Long.box(snapshot.version), predicate)

  override def toString: String = {
    val atRuntime = if (prunesAtRuntime) ", and key sets at runtime" else ""
    s"BloomPrunedDeltaIndex($path, version ${snapshot.version}, ${addFiles.size} of ${plannedCounts.filesTotal} " +
      s"files (row groups cut in ${plannedRowGroups.size}), bloom: $predicate$atRuntime)"
  }
}
