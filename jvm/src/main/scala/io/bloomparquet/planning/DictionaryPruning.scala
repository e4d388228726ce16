package io.bloomparquet.planning

import java.io.IOException

import io.bloomparquet.pruning.{ChunkAt, CompiledPredicate, DictionaryHashes, RowGroupPruner, RowGroupVerdict}
import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.CodecFactory
import org.apache.parquet.hadoop.metadata.BlockMetaData
import org.apache.parquet.io.SeekableInputStream

/**
 * Row groups the bloom filters kept, judged again by the dictionaries of their chunks that have no
 * filter: the skipping parquet-java's dictionary filter does in tasks, done at planning so a row
 * group (and a file) none of whose dictionaries holds a probed value gets no task. A dictionary is
 * read only where it can change the verdict: the row group would be pruned were every readable
 * dictionary of it empty. Dictionaries read are kept in the file's [[FileBloomIndex]].
 */
object DictionaryPruning {

  /** The verdicts after dictionaries, and the dictionary bytes and reads it took. */
  final case class Judged(verdicts: IndexedSeq[RowGroupVerdict], bytesRead: Long, reads: Int)

  private val empty = DictionaryHashes.of(Array.emptyLongArray)

  /** The chunks whose dictionaries could prune a kept row group. */
  def wanted(compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData], verdicts: IndexedSeq[RowGroupVerdict],
      filters: RowGroupPruner.FilterLookup): Seq[ChunkAt] = {
    val chunks = RowGroupPruner.probedChunks(compiled)
    if (chunks.isEmpty) return Nil
    blocks.indices.filter(verdicts(_) == RowGroupVerdict.Keep).flatMap { rg =>
      val readable = chunks.filter(c => filters(ChunkAt(rg, c)).isEmpty && ChunkDictionary.readable(blocks(rg).getColumns.get(c)))
      val emptied: RowGroupPruner.FilterLookup = at => if (readable.contains(at.column)) Some(empty) else filters(at)
      if (readable.nonEmpty && RowGroupPruner.verdict(compiled, blocks(rg), rg, emptied) != RowGroupVerdict.Keep)
        readable.map(ChunkAt(rg, _))
      else Nil
    }
  }

  /**
   * Reads the `wanted` dictionaries `index` lacks from `in`, in file order, then judges. None when
   * `cachedOnly` and some are missing (nothing is read then). An I/O error costs this query only.
   */
  def judge(index: FileBloomIndex, compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData],
      verdicts: IndexedSeq[RowGroupVerdict], filters: RowGroupPruner.FilterLookup, wanted: Seq[ChunkAt],
      in: => SeekableInputStream, conf: Configuration, cachedOnly: Boolean): Option[Judged] = {
    val missing = wanted.filter(index.dictionary(_).isEmpty)
      .sortBy { case ChunkAt(rg, c) => blocks(rg).getColumns.get(c).getStartingPos }
    if (cachedOnly && missing.nonEmpty) return None
    val schema = index.footer.getFileMetaData.getSchema
    val read = if (missing.isEmpty) Map.empty[ChunkAt, ChunkDictionary]
    else {
      val codecs = new CodecFactory(conf, 0)
      try missing.map { case at @ ChunkAt(rg, c) =>
          val chunk = blocks(rg).getColumns.get(c)
          val column = schema.getColumnDescription(chunk.getPath.toArray)
          at ->
            (try ChunkDictionary.read(in, chunk, column, codecs)
            catch { case e: IOException => ChunkDictionary.Unusable(e.toString, 0) })
        }.toMap
      finally codecs.release()
    }
    // An I/O error (nothing read) is not kept: the next query reads that dictionary again.
    read.foreach { case (at, d) => if (d.bytesRead > 0) index.addDictionary(at, d) }
    val held: RowGroupPruner.FilterLookup = at =>
      filters(at).orElse(index.dictionary(at).collect { case ChunkDictionary.Values(hashes, _) => hashes })
    val judgedRowGroups = wanted.map(_.rowGroup).toSet
    val after = verdicts.indices.map { rg =>
      if (!judgedRowGroups(rg)) verdicts(rg)
      else if (RowGroupPruner.verdict(compiled, blocks(rg), rg, held) == RowGroupVerdict.Keep) RowGroupVerdict.Keep
      else RowGroupVerdict.PrunedByDictionary
    }
    Some(Judged(after, read.values.map(_.bytesRead).sum, read.size))
  }
}
