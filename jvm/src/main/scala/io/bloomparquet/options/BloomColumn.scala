package io.bloomparquet.options

/** How a chunk's filter is sized when no NDV is given. */
sealed abstract class Sizing(val name: String) extends Serializable
object Sizing {
  /** Count the chunk's distinct hashes exactly, then build a filter of the optimal size (default). */
  case object Exact extends Sizing("exact")
  /** Insert into one large filter, estimate the count from its fill, fold once (see [[SbbfFold]]). */
  case object Fold extends Sizing("fold")
  val all: Seq[Sizing] = Seq(Exact, Fold)
}

/**
 * One leaf column to write bloom filters for: its path in the Parquet schema
 * (struct fields as separate parts), target FPP, optional NDV per chunk.
 */
final case class BloomColumn(
    path: Seq[String],
    fpp: Double,
    ndv: Option[Long],
    sizing: Sizing = Sizing.Exact,
    foldMaxNdv: Long = BloomColumn.DefaultFoldMaxNdv) {
  def dotted: String = path.mkString(".")
}

object BloomColumn {
  val DefaultFoldMaxNdv: Long = 4L << 20
}
