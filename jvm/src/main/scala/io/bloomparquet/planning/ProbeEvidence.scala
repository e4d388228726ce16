package io.bloomparquet.planning

import io.bloomparquet.pruning.CompiledPredicate.Leaf
import io.bloomparquet.pruning.{ChunkAt, CompiledPredicate, ProbePayoff, RowGroupPruner, RowGroupVerdict}
import org.apache.parquet.hadoop.metadata.BlockMetaData

/**
 * What one file tells a [[ProbeGate]]: its probed row groups as a
 * [[ProbePayoff.Tally]] (chances from the filters' fill, or bounded from the
 * footer), read off the footer's row groups and statistics.
 */
object ProbeEvidence {

  /** A leaf's chance to exclude a row group holding none of its values, given its filter's rate. */
  private def leafChance(leaf: Leaf, block: BlockMetaData, fpp: Option[Double]): Option[Double] =
    RowGroupPruner.statsCandidates(leaf, block) match {
      case Some(values) if values.isEmpty => Some(1.0)
      case candidates if leaf.useFilter =>
        fpp.map(ProbePayoff.exclusionChance(_, candidates.fold(leaf.probe.values.size)(_.size)))
      case _ => None
    }

  /**
   * The row groups whose filters are `wanted`, as chances to be pruned, whether they were, and
   * the filter and row group bytes at stake; `filter`: a chunk's filter rate and bytes, if known.
   * Row groups with no known filter (missing, broken) are left out: they say nothing of the others.
   */
  def tally(compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData], wanted: Seq[ChunkAt],
      verdicts: IndexedSeq[RowGroupVerdict], filter: ChunkAt => Option[(Double, Long)]): ProbePayoff.Tally =
    wanted.groupBy(_.rowGroup).foldLeft(ProbePayoff.Tally()) {
      case (sum, (_, chunks)) if chunks.forall(filter(_).isEmpty) => sum
      case (sum, (rg, chunks)) =>
        val block = blocks(rg)
        val chance =
          ProbePayoff.rowGroupChance(compiled, leaf => leafChance(leaf, block, filter(ChunkAt(rg, leaf.chunk)).map(_._1)))
        val filterBytes = chunks.flatMap(filter(_).map(_._2)).sum
        sum + ProbePayoff.rowGroup(chance, verdicts(rg) == RowGroupVerdict.PrunedByBloomFilter, filterBytes,
          block.getCompressedSize)
    }

  /** What the footer alone promises: each filter's rate bounded from above by its length against the values. */
  def footerBound(compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData], wanted: Seq[ChunkAt],
      filterLength: ChunkAt => Option[Int]): ProbePayoff.Tally =
    tally(compiled, blocks, wanted, blocks.indices.map(_ => RowGroupVerdict.Keep),
      at => {
        val chunk = blocks(at.rowGroup).getColumns.get(at.column)
        filterLength(at).flatMap(n => ProbePayoff.fppUpperBound(n, chunk.getValueCount).map((_, n.toLong)))
      })
}
