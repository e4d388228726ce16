package io.bloomparquet.pruning

/** One column chunk of a file: its row group's index and its column's index within the row group. */
final case class ChunkAt(rowGroup: Int, column: Int)
