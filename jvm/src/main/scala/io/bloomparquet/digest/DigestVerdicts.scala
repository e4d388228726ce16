package io.bloomparquet.digest

import java.util.BitSet

import io.bloomparquet.kernel.SbbfKernel
import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn, NoMatch}
import io.bloomparquet.pruning.{BloomPredicate, LiteralEncoder, PhysicalProbe, RowGroupVerdict}
import io.bloomparquet.schema.ColumnResolver
import org.apache.parquet.schema.{MessageTypeParser, PrimitiveType}

/**
 * The row groups of the files a digest covers that may hold rows of a predicate, decided from the
 * digest's entries alone (no footer, no filter of the files): a value of `column IN (...)` is
 * encoded and hashed for each class's Parquet type as a file's own pruning encodes it
 * ([[LiteralEncoder]]), and a row group is pruned only where its entry of every class the column
 * resolves to says none is there. A row group the digest cannot answer for (no entry for the
 * column, a literal with no stored form it can hash, a column matched by field id) is kept. Pure.
 */
object DigestVerdicts {

  /** The row groups of the digest's files that may hold rows of `predicate`. */
  def of(digest: OpenDigest, predicate: BloomPredicate, caseSensitive: Boolean, rowWords: RowRead => Array[Int],
      kernel: SbbfKernel): DigestKept = {
    val index = digest.index
    val ruledOut = leaves(predicate).distinct.map(leaf => leaf -> ruledOutBy(digest, leaf, caseSensitive, rowWords, kernel)).toMap
    def every = { val all = new BitSet(index.rowGroupCount); all.set(0, index.rowGroupCount); all }
    // A predicate's row groups as sets: AND intersects its parts', OR unites them.
    def kept(p: BloomPredicate): BitSet = p match {
      case NoMatch => new BitSet()
      case AllOf(cs) => cs.map(kept).reduceOption { (a, b) => a.and(b); a }.getOrElse(every)
      case AnyOf(cs) => cs.map(kept).reduceOption { (a, b) => a.or(b); a }.getOrElse(new BitSet())
      case leaf: ColumnIn =>
        val k = every
        k.andNot(ruledOut(leaf))
        k
    }
    new DigestKept(index, kept(predicate))
  }

  /** The row groups whose entries of the classes `leaf`'s column resolves to all say none of its values is there. */
  private def ruledOutBy(digest: OpenDigest, leaf: ColumnIn, caseSensitive: Boolean, rowWords: RowRead => Array[Int],
      kernel: SbbfKernel): BitSet = {
    val out = new BitSet(digest.index.rowGroupCount)
    // The digest knows names, not field ids: such a leaf rules nothing out.
    if (leaf.fieldIds.isEmpty) classesOf(digest, leaf, caseSensitive).foreach { i =>
      val c = digest.index.classes(i)
      LiteralEncoder.encode(leaf.dataType, leaf.values, primitive(c.parquetType)) match {
        case PhysicalProbe.Unknown(_) =>
        case probe: PhysicalProbe.AnyOf =>
          val held = if (probe.values.isEmpty) new BitSet() else digest.heldIn(i, probe.hashes, rowWords, kernel)
          c.entries.indices.filterNot(held.get).foreach(e => out.set(digest.index.rowGroupAt(c.entries(e).file, c.entries(e).rowGroup)))
      }
    }
    out
  }

  /** The row groups of the files in `files` (indexes into the digest's) that have an entry `predicate` probes. */
  def probedRowGroups(digest: OpenDigest, predicate: BloomPredicate, caseSensitive: Boolean, files: BitSet): BitSet = {
    val out = new BitSet(digest.index.rowGroupCount)
    probedClasses(digest, predicate, caseSensitive).foreach { i =>
      digest.index.classes(i).entries.foreach(e => if (files.get(e.file)) out.set(digest.index.rowGroupAt(e.file, e.rowGroup)))
    }
    out
  }

  /** The rows probing `predicate` reads: per class of each column it names, the rows its values hash to. */
  def rowsNeeded(digest: OpenDigest, predicate: BloomPredicate, caseSensitive: Boolean): Seq[RowRead] =
    leaves(predicate).filter(_.fieldIds.isEmpty).flatMap { leaf =>
      classesOf(digest, leaf, caseSensitive).flatMap { i =>
        LiteralEncoder.encode(leaf.dataType, leaf.values, primitive(digest.index.classes(i).parquetType)) match {
          case probe: PhysicalProbe.AnyOf if probe.values.nonEmpty => digest.readsOf(i, probe.hashes)
          case _ => Nil
        }
      }
    }.distinct

  /** The classes a predicate's values are probed in: those of the columns it names that the digest can answer for. */
  def probedClasses(digest: OpenDigest, predicate: BloomPredicate, caseSensitive: Boolean): Seq[Int] =
    leaves(predicate).filter(_.fieldIds.isEmpty).flatMap(classesOf(digest, _, caseSensitive)).distinct

  /** The block checks probing `predicate` takes: each value against each entry of its column's classes. */
  def probeChecks(digest: OpenDigest, predicate: BloomPredicate, caseSensitive: Boolean): Long =
    leaves(predicate).filter(_.fieldIds.isEmpty)
      .map(leaf => leaf.values.size.toLong * classesOf(digest, leaf, caseSensitive).map(digest.index.classes(_).entries.size.toLong).sum)
      .sum

  // The column resolved as a file's pruning resolves it, against the leaf each class's files store.
  private def classesOf(digest: OpenDigest, leaf: ColumnIn, caseSensitive: Boolean): Seq[Int] =
    digest.index.classes.indices
      .filter(i => ColumnResolver.leaf(Seq(digest.index.classes(i).leaf), leaf.path, caseSensitive).isRight)

  private def leaves(p: BloomPredicate): Seq[ColumnIn] = p match {
    case NoMatch => Nil
    case AllOf(cs) => cs.flatMap(leaves)
    case AnyOf(cs) => cs.flatMap(leaves)
    case leaf: ColumnIn => Seq(leaf)
  }

  /** A class's Parquet type, from the schema text it stores ([[DigestClass.typeText]]). */
  def primitive(parquetType: String): PrimitiveType =
    MessageTypeParser.parseMessageType(s"message digest { $parquetType; }").getType(0).asPrimitiveType
}

/**
 * The row groups of a digest's files a predicate may match (bits set, as [[DigestIndex.rowGroupAt]]
 * numbers them); every other row group the digest rules out.
 */
final class DigestKept(index: DigestIndex, kept: BitSet) {
  def keeps(file: Int, rowGroup: Int): Boolean = kept.get(index.rowGroupAt(file, rowGroup))

  /** Whether some row group of `file` may match. */
  def keepsAny(file: Int): Boolean = {
    val rowGroups = index.rowGroupsOf(file)
    val next = kept.nextSetBit(rowGroups.start)
    next >= 0 && next < rowGroups.end
  }

  /** File `file`'s row groups' verdicts. */
  def verdicts(file: Int): IndexedSeq[RowGroupVerdict] = index.files(file).rowGroups.indices
    .map(rg => if (keeps(file, rg)) RowGroupVerdict.Keep else RowGroupVerdict.PrunedByBloomFilter)

  /** How many of `rowGroups` (numbered as above) are ruled out. */
  def ruledOutOf(rowGroups: BitSet): Int = {
    val out = rowGroups.clone().asInstanceOf[BitSet]
    out.andNot(kept)
    out.cardinality
  }
}
