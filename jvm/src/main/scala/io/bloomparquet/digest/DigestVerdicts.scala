package io.bloomparquet.digest

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

  /** Per covered file (index into the digest's files), one verdict per row group. */
  def of(digest: OpenDigest, predicate: BloomPredicate, caseSensitive: Boolean, rowWords: RowRead => Array[Int],
      kernel: SbbfKernel): IndexedSeq[IndexedSeq[RowGroupVerdict]] = {
    val answers = leaves(predicate).map(leaf => leaf -> answer(digest, leaf, caseSensitive, rowWords, kernel)).toMap
    digest.index.files.indices.map { f =>
      digest.index.files(f).rowGroups.indices.map { rg =>
        if (mayMatch(predicate, DigestEntry(f, rg), answers)) RowGroupVerdict.Keep else RowGroupVerdict.PrunedByBloomFilter
      }
    }
  }

  /** What the digest says of one `column IN (...)`: the entries it rules out, and those it says may match. */
  private final case class Answer(ruledOut: Set[DigestEntry])

  private def answer(digest: OpenDigest, leaf: ColumnIn, caseSensitive: Boolean, rowWords: RowRead => Array[Int],
      kernel: SbbfKernel): Answer =
    if (leaf.fieldIds.nonEmpty) Answer(Set.empty) // the digest knows names, not field ids
    else {
      Answer(classesOf(digest, leaf, caseSensitive).flatMap { i =>
        val c = digest.index.classes(i)
        LiteralEncoder.encode(leaf.dataType, leaf.values, primitive(c.parquetType)) match {
          case PhysicalProbe.Unknown(_) => Nil
          case probe: PhysicalProbe.AnyOf =>
            val held = if (probe.values.isEmpty) Set.empty[DigestEntry] else digest.mayHoldIn(i, probe.hashes, rowWords, kernel)
            c.entries.filterNot(held)
        }
      }.toSet)
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

  private def mayMatch(p: BloomPredicate, entry: DigestEntry, answers: Map[ColumnIn, Answer]): Boolean = p match {
    case NoMatch => false
    case AllOf(cs) => cs.forall(mayMatch(_, entry, answers))
    case AnyOf(cs) => cs.exists(mayMatch(_, entry, answers))
    case leaf: ColumnIn => !answers(leaf).ruledOut(entry)
  }

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
