package io.bloomparquet.iceberg

import io.bloomparquet.write.ParquetJavaFilters
import io.bloomparquet.write.ParquetJavaFilters.FilterColumn

/**
 * Iceberg table properties that make Iceberg's writer (parquet-java's, underneath) write bloom filters
 * sized by our model, as [[ParquetJavaFilters]] gives them to writers we cannot replace: Iceberg passes
 * its properties to parquet-java one for one. A column with a known count of distinct values per row
 * group gets a filter for it; otherwise parquet-java's adaptive filter counts them while writing (Iceberg
 * 1.12 on; `adaptive` false before, and a filter for a full row group's rows). Iceberg has no setting for
 * the number of adaptive candidates: parquet-java's default (5, halving from the largest) applies.
 */
object IcebergFilterProperties {
  private val Prefix = "write.parquet.bloom-filter-"

  /**
   * The properties writing `columns`' filters (dotted field paths as Iceberg names them).
   *
   * @param rowsPerRowGroup what bounds the distinct values of a row group where a column's are unknown
   * @param adaptive        whether the table's Iceberg has adaptive filters (1.12 on)
   */
  def of(columns: Seq[FilterColumn], rowsPerRowGroup: Long, adaptive: Boolean): Map[String, String] =
    ParquetJavaFilters(columns, Nil, rowsPerRowGroup, adaptive).toSeq.flatMap { case (key, value) =>
      val parts = key.stripPrefix(ParquetJavaFilters.Prefix).split("#", 2)
      val (setting, column) = (parts(0), parts.lift(1))
      (setting, column) match {
        case ("enabled", Some(c)) => Some(s"${Prefix}enabled.column.$c" -> value)
        case ("fpp", Some(c)) => Some(s"${Prefix}fpp.column.$c" -> value)
        case ("expected.ndv", Some(c)) => Some(s"${Prefix}ndv.column.$c" -> value)
        case ("adaptive.enabled", None) => Some(s"${Prefix}adaptive-enabled" -> value)
        case ("max.bytes", None) => Some(s"${Prefix}max-bytes" -> value)
        case _ => None // candidates.number: Iceberg has no such setting
      }
    }.toMap

  /** [[of]] for Python (py4j): `ndv` 0 where a column's count is unknown. */
  def forPython(columns: java.util.List[String], fpp: Double, ndv: java.util.List[Number], rowsPerRowGroup: Long,
      adaptive: Boolean): java.util.Map[String, String] = {
    import scala.jdk.CollectionConverters._
    val cols = columns.asScala.zip(ndv.asScala).map { case (c, n) =>
      FilterColumn(c.split('.').toSeq, fpp, Some(n.longValue).filter(_ > 0))
    }.toSeq
    of(cols, rowsPerRowGroup, adaptive).asJava
  }
}
