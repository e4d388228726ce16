package io.bloomparquet.write

import java.net.{URLDecoder, URLEncoder}
import java.nio.charset.StandardCharsets.UTF_8

/** How a chunk's filter is sized when no NDV is given. */
sealed abstract class Sizing(val name: String)
object Sizing {
  /** Count the chunk's distinct hashes exactly, then build a filter of the optimal size (default). */
  case object Exact extends Sizing("exact")
  /** Insert into one large filter, estimate the count from its fill, fold once (see [[SbbfFold]]). */
  case object Fold extends Sizing("fold")
  val all: Seq[Sizing] = Seq(Exact, Fold)
  def parse(s: String): Option[Sizing] = all.find(_.name == s)
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

  /** Round-trips through a Hadoop configuration string (executors get the plan that way). */
  def encode(columns: Seq[BloomColumn]): String =
    columns.map { c =>
      (Seq(c.fpp.toString, c.ndv.fold("")(_.toString), c.sizing.name, c.foldMaxNdv.toString) ++
        c.path.map(URLEncoder.encode(_, UTF_8))).mkString(",")
    }.mkString(";")

  def decode(s: String): Seq[BloomColumn] =
    if (s == null || s.isEmpty) Nil
    else s.split(";").toSeq.map { one =>
      val f = one.split(",", -1)
      BloomColumn(
        path = f.drop(4).toSeq.map(URLDecoder.decode(_, UTF_8)),
        fpp = f(0).toDouble,
        ndv = if (f(1).isEmpty) None else Some(f(1).toLong),
        sizing = Sizing.parse(f(2)).getOrElse(Sizing.Exact),
        foldMaxNdv = f(3).toLong)
    }
}
