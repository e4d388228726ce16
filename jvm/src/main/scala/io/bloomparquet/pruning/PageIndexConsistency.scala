package io.bloomparquet.pruning

import java.nio.{ByteBuffer, ByteOrder}

import scala.jdk.CollectionConverters._

import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.internal.column.columnindex.{BoundaryOrder, ColumnIndex, OffsetIndex}
import org.apache.parquet.io.api.Binary
import org.apache.parquet.schema.PrimitiveType
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName

/**
 * Whether a column chunk's page index (column index and offset index) agrees with everything else
 * the footer says of the chunk, so that parquet-java may skip pages by it. parquet-java checks
 * nothing before it drops pages, and writers have shipped indexes that lie (every page marked
 * all-null while the chunk's statistics count values). What a page index can be checked against
 * without decoding pages:
 *
 *  - its own shape: one entry per page in both indexes; first rows from 0, rising, inside the row group;
 *  - null counts: a page marked all-null holds only nulls, any other page a value (leaves that do
 *    not repeat, where a page's rows are its values); their sum is the chunk's null count;
 *  - the chunk's statistics: a chunk with values has a page that is not all-null, an all-null
 *    chunk only all-null pages; every page's min and max lie within the chunk's, and the chunk's
 *    min and max are some page's (types whose values are not truncated nor normalized);
 *  - the boundary order it declares (parquet-java searches pages by it).
 * Pure.
 */
object PageIndexConsistency {

  /**
   * Whether `index` and `offsets` of one chunk are consistent with the rest of its footer: `rows`
   * in its row group, `values` in the chunk (nulls included), of `primitive`, with statistics
   * `stats` (null: none); `repeated` when its leaf repeats (a page's rows are then not its values).
   * A chunk whose statistics give no bounds is not consistent: nothing checks its pages' bounds.
   */
  def consistent(primitive: PrimitiveType, repeated: Boolean, rows: Long, values: Long, stats: Statistics[_],
      index: ColumnIndex, offsets: OffsetIndex): Boolean = {
    val pages = offsets.getPageCount
    val nullPages = index.getNullPages.asScala.map(_.booleanValue).toIndexedSeq
    val nullCounts = Option(index.getNullCounts).map(_.asScala.map(_.longValue).toIndexedSeq).filter(_.nonEmpty)
    val firsts = (0 until pages).map(offsets.getFirstRowIndex)
    val pageRows = (0 until pages).map(i => (if (i + 1 < pages) firsts(i + 1) else rows) - firsts(i))
    val shaped = pages > 0 && nullPages.size == pages && nullCounts.forall(_.size == pages) &&
      firsts.head == 0 && pageRows.forall(_ > 0) &&
      index.getMinValues.size == pages && index.getMaxValues.size == pages
    shaped && nullsAgree(repeated, nullPages, nullCounts, pageRows, stats) &&
    boundsAgree(primitive, values, stats, index, nullPages)
  }

  private def nullsAgree(repeated: Boolean, nullPages: IndexedSeq[Boolean], nullCounts: Option[IndexedSeq[Long]],
      pageRows: IndexedSeq[Long], stats: Statistics[_]): Boolean = {
    val perPage = repeated || nullCounts.forall { counts =>
      counts.indices.forall(i => if (nullPages(i)) counts(i) == pageRows(i) else counts(i) < pageRows(i))
    }
    val total = nullCounts.forall(counts => stats == null || !stats.isNumNullsSet || counts.sum == stats.getNumNulls)
    perPage && total
  }

  private def boundsAgree(primitive: PrimitiveType, values: Long, stats: Statistics[_], index: ColumnIndex,
      nullPages: IndexedSeq[Boolean]): Boolean = {
    val withValues = nullPages.indices.filterNot(nullPages)
    val allNull = stats != null && stats.isNumNullsSet && stats.getNumNulls == values
    if (allNull) withValues.isEmpty
    else if (withValues.isEmpty || stats == null || !stats.hasNonNullValue) false
    else {
      val order = primitive.comparator().asInstanceOf[java.util.Comparator[Any]]
      val value = decoder(primitive)
      val mins = withValues.map(i => value(index.getMinValues.get(i)))
      val maxes = withValues.map(i => value(index.getMaxValues.get(i)))
      val (low, high) = (stats.genericGetMin.asInstanceOf[Any], stats.genericGetMax.asInstanceOf[Any])
      val cut = truncatable(primitive)
      val within = mins.forall(m => order.compare(m, low) >= 0 || (cut && prefixOf(m, low))) &&
        maxes.forall(m => order.compare(m, high) <= 0 || (cut && roundedUpPrefix(m, high)))
      val pageMinMax = mins.zip(maxes).forall { case (l, h) => order.compare(l, h) <= 0 }
      val reached = cut || !exact(primitive) ||
        (mins.exists(order.compare(_, low) == 0) && maxes.exists(order.compare(_, high) == 0))
      within && pageMinMax && reached && ordered(index.getBoundaryOrder, order, mins, maxes)
    }
  }

  private def ordered(boundary: BoundaryOrder, order: java.util.Comparator[Any], mins: Seq[Any], maxes: Seq[Any]): Boolean = {
    def rising(xs: Seq[Any]) = xs.zip(xs.drop(1)).forall { case (a, b) => order.compare(a, b) <= 0 }
    boundary match {
      case BoundaryOrder.ASCENDING => rising(mins) && rising(maxes)
      case BoundaryOrder.DESCENDING => rising(mins.reverse) && rising(maxes.reverse)
      case _ => true
    }
  }

  // Writers cut long byte-array bounds in page indexes: a min to a prefix, a max to a prefix whose last byte is raised.
  private def truncatable(t: PrimitiveType): Boolean = t.getPrimitiveTypeName match {
    case PrimitiveTypeName.BINARY | PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY => true
    case _ => false
  }

  // Floats: writers normalize -0.0 and 0.0 in statistics but not always in page indexes.
  private def exact(t: PrimitiveType): Boolean = t.getPrimitiveTypeName match {
    case PrimitiveTypeName.FLOAT | PrimitiveTypeName.DOUBLE => false
    case _ => true
  }

  private def bytes(v: Any): Array[Byte] = v.asInstanceOf[Binary].getBytes

  private def prefixOf(cut: Any, whole: Any): Boolean = {
    val (c, w) = (bytes(cut), bytes(whole))
    c.length < w.length && c.indices.forall(i => c(i) == w(i))
  }

  private def roundedUpPrefix(cut: Any, whole: Any): Boolean = {
    val (c, w) = (bytes(cut), bytes(whole))
    c.nonEmpty && c.length < w.length && (0 until c.length - 1).forall(i => c(i) == w(i)) &&
    (c(c.length - 1) & 0xff) > (w(c.length - 1) & 0xff)
  }

  /** A page index bound (PLAIN encoding) as the Java value `primitive`'s comparator takes. */
  private def decoder(primitive: PrimitiveType): ByteBuffer => Any = {
    def le(b: ByteBuffer) = b.duplicate().order(ByteOrder.LITTLE_ENDIAN)
    primitive.getPrimitiveTypeName match {
      case PrimitiveTypeName.BOOLEAN => b => java.lang.Boolean.valueOf(b.get(b.position()) != 0)
      case PrimitiveTypeName.INT32 => b => Integer.valueOf(le(b).getInt(b.position()))
      case PrimitiveTypeName.INT64 => b => java.lang.Long.valueOf(le(b).getLong(b.position()))
      case PrimitiveTypeName.FLOAT => b => java.lang.Float.valueOf(le(b).getFloat(b.position()))
      case PrimitiveTypeName.DOUBLE => b => java.lang.Double.valueOf(le(b).getDouble(b.position()))
      case _ => b => Binary.fromConstantByteBuffer(b.duplicate())
    }
  }
}
