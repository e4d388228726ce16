package io.bloomparquet.pruning

import scala.util.control.NonFatal

import io.bloomparquet.pruning.CompiledPredicate.{And, Const, Leaf, Or}
import io.bloomparquet.sbbf.{BloomFilterReader, BloomProbe}
import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.hadoop.metadata.BlockMetaData

/** Why a row group is read or skipped. */
sealed trait RowGroupVerdict
object RowGroupVerdict {
  case object Keep extends RowGroupVerdict
  case object PrunedByStatistics extends RowGroupVerdict
  case object PrunedByBloomFilter extends RowGroupVerdict

  /** No probed value is in the dictionary of a chunk without a filter whose pages all use it. */
  case object PrunedByDictionary extends RowGroupVerdict
}

/**
 * Pure decisions for the row groups of one file: min/max statistics first,
 * then bloom filters. A row group is skipped only when the predicate can't be
 * true for any of its rows; every unknown answers "may match".
 */
object RowGroupPruner {

  /** A chunk's bloom filter, None when absent, broken or not loaded. */
  type FilterLookup = ChunkAt => Option[BloomProbe]

  /** Statistics candidates per leaf of one row group, computed once (leaves by identity: they hold the literals). */
  private final class StatsMemo(block: BlockMetaData) {
    private val memo = new java.util.IdentityHashMap[Leaf, Option[IndexedSeq[PhysicalValue]]]()
    def apply(leaf: Leaf): Option[IndexedSeq[PhysicalValue]] = {
      if (!memo.containsKey(leaf)) memo.put(leaf, statsCandidates(leaf, block))
      memo.get(leaf)
    }
  }

  private val noFilters: FilterLookup = _ => None

  /** The chunks whose filters could change a decision: leaves whose stats leave candidates. */
  def filtersWanted(p: CompiledPredicate, blocks: IndexedSeq[BlockMetaData]): Seq[ChunkAt] = {
    val leaves = collectLeaves(p)
    for {
      rg <- blocks.indices
      stats = new StatsMemo(blocks(rg))
      if mayMatch(p, stats, rg, noFilters)
      leaf <- leaves
      if leaf.useFilter && blocks(rg).getColumns.get(leaf.chunk).getBloomFilterOffset != BloomFilterReader.NoOffset &&
        stats(leaf).forall(_.nonEmpty)
    } yield ChunkAt(rg, leaf.chunk)
  }.distinct

  /** The hashes the filter of chunk `chunk` is probed with, in any row group: its leaves' values. */
  def probedHashes(p: CompiledPredicate, chunk: Int): Array[Long] =
    collectLeaves(p).filter(l => l.useFilter && l.chunk == chunk).flatMap(_.probe.hashes).distinct.toArray

  /** The chunks of the leaves that probe filters (and dictionaries): their values have hashes. */
  def probedChunks(p: CompiledPredicate): Seq[Int] = collectLeaves(p).filter(_.useFilter).map(_.chunk).distinct

  def decide(p: CompiledPredicate, blocks: IndexedSeq[BlockMetaData], filters: FilterLookup): IndexedSeq[RowGroupVerdict] =
    blocks.indices.map(rg => verdict(p, blocks(rg), rg, filters))

  /** The verdict on row group `rg` (`block`), with `filters` answering for its chunks' filters. */
  def verdict(p: CompiledPredicate, block: BlockMetaData, rg: Int, filters: FilterLookup): RowGroupVerdict = {
    val stats = new StatsMemo(block)
    if (!mayMatch(p, stats, rg, noFilters)) RowGroupVerdict.PrunedByStatistics
    else if (!mayMatch(p, stats, rg, filters)) RowGroupVerdict.PrunedByBloomFilter
    else RowGroupVerdict.Keep
  }

  private def collectLeaves(p: CompiledPredicate): Seq[Leaf] = p match {
    case l: Leaf => Seq(l)
    case And(cs) => cs.flatMap(collectLeaves)
    case Or(cs) => cs.flatMap(collectLeaves)
    case Const(_) => Nil
  }

  private def mayMatch(p: CompiledPredicate, stats: StatsMemo, rg: Int, filters: FilterLookup): Boolean = p match {
    case Const(b) => b
    case And(cs) => cs.forall(mayMatch(_, stats, rg, filters))
    case Or(cs) => cs.exists(mayMatch(_, stats, rg, filters))
    case leaf @ Leaf(chunk, all, useFilter) =>
      stats(leaf) match {
        case Some(values) if values.isEmpty => false
        case _ if !useFilter => true
        case candidates =>
          filters(ChunkAt(rg, chunk)) match {
            case None => true
            case Some(filter) =>
              // Probe only what statistics left; reuse the file-wide hashes when they left everything.
              val hashes = candidates match {
                case Some(vs) if vs.size < all.values.size => vs.map(_.hash).toArray
                case _ => all.hashes
              }
              filter.mightContainAny(hashes)
          }
      }
  }

  private def within[T <: Comparable[T]](s: Statistics[T], value: Any): Boolean = {
    val v = value.asInstanceOf[T]
    s.compareMinToValue(v) <= 0 && s.compareMaxToValue(v) >= 0
  }

  /** The values in [min, max] of `s`, by binary search: `values` are sorted by `order`, which `s` compares by. */
  private def withinSorted(values: IndexedSeq[PhysicalValue], order: java.util.Comparator[Any], s: Statistics[_])
      : IndexedSeq[PhysicalValue] = {
    val (min, max) = (s.genericGetMin: Any, s.genericGetMax: Any)
    // First index whose value is not below `bound` (strict = false) or above it (strict = true).
    def search(bound: Any, strict: Boolean): Int = {
      var (lo, hi) = (0, values.size)
      while (lo < hi) {
        val mid = (lo + hi) >>> 1
        val c = order.compare(values(mid).statsValue.get, bound)
        if (c < 0 || strict && c == 0) lo = mid + 1 else hi = mid
      }
      lo
    }
    values.slice(search(min, strict = false), search(max, strict = true))
  }

  /**
   * The literal values min/max statistics can't exclude: Some(empty) when the
   * chunk can hold none of them, None when statistics say nothing.
   */
  def statsCandidates(leaf: Leaf, block: BlockMetaData): Option[IndexedSeq[PhysicalValue]] = leaf.probe match {
    case PhysicalProbe.AnyOf(values, sortedBy) =>
      val chunk = block.getColumns.get(leaf.chunk)
      val stats: Statistics[_] = try chunk.getStatistics
      catch { case NonFatal(_) => null }
      if (stats == null || stats.isEmpty) None
      else if (!stats.hasNonNullValue) {
        // Only nulls in the chunk: equality is never true.
        if (stats.isNumNullsSet && stats.getNumNulls == chunk.getValueCount) Some(IndexedSeq.empty) else None
      } else {
        try sortedBy match {
            case Some(order) if order == stats.comparator() => Some(withinSorted(values, order, stats))
            case _ =>
              // Statistics[T] is erased: the type argument below is nominal; values carry the column's class.
              val s = stats.asInstanceOf[Statistics[java.lang.Integer]]
              Some(values.filter(v => v.statsValue.forall(x => within(s, x))))
          }
        catch { case NonFatal(_) => None }
      }
  }
}
