package io.bloomparquet.planning

import io.bloomparquet.options.{BloomReadOptions, FilterReads, ReadCostSettings}
import io.bloomparquet.pruning.BloomPredicate

/** One file's pruning as planning does it, with the early stop and dictionaries off: the filters alone decide. */
object FiltersAlone {
  def pass(predicate: BloomPredicate, useCache: Boolean, reads: FilterReads = FilterReads.Auto,
      costs: ReadCostSettings = ReadCostSettings(), tailSizer: TailSizer = new TailSizer): FilePruner.Pass = {
    val options = BloomReadOptions.parse(Map("bloom.cache" -> useCache.toString, "bloom.filterReads" -> reads.name,
        "bloom.earlyStop" -> "false", "bloom.dictionaries" -> "false"))
    new FilePruner.Pass(predicate, caseSensitive = true, options, costs, tailSizer)
  }
}
