package io.bloomparquet.pruning

import java.util.Locale

import io.bloomparquet.compat.SparkCompat
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.connector.expressions.{Literal, NamedReference}
import org.apache.spark.sql.types._

/**
 * Runtime filters on partition columns (dynamic partition pruning, `p IN (the join's keys)`):
 * per partition column (its ordinal in the files' partition values), the values it may take.
 * A file whose value is not among them, or is null (`IN` never matches null), holds no row
 * the join keeps. Only types whose Catalyst values are equal exactly when Spark's equality
 * says so (no floats, decimals, binaries or collations). Pure; no SparkSession.
 */
final case class PartitionKeys(keys: Map[Int, (DataType, Set[Any])]) {
  def keeps(values: InternalRow): Boolean = keys.forall { case (i, (t, allowed)) =>
    !values.isNullAt(i) && allowed.contains(values.get(i, t))
  }
}

object PartitionKeys {
  def supported(t: DataType): Boolean = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | DateType | TimestampType | TimestampNTZType => true
    case s: StringType => SparkCompat.isBinaryCollation(s)
    case _ => false
  }

  /** The `IN` predicates on partition columns among `predicates`, if any. */
  def fromPredicates(predicates: Seq[Predicate], partitionSchema: StructType, caseSensitive: Boolean): Option[PartitionKeys] = {
    def ordinal(name: String): Int = partitionSchema.fields.indexWhere { f =>
      if (caseSensitive) f.name == name else f.name.toLowerCase(Locale.ROOT) == name.toLowerCase(Locale.ROOT)
    }
    val keys = predicates.flatMap { p =>
      (p.name, p.children.toSeq) match {
        case ("IN", (ref: NamedReference) +: literals)
            if ref.fieldNames.length == 1 &&
              literals.forall(_.isInstanceOf[Literal[_]]) =>
          val i = ordinal(ref.fieldNames.head)
          val values = literals.map(_.asInstanceOf[Literal[_]])
          if (i < 0) None
          else {
            val t = partitionSchema(i).dataType
            if (!supported(t) || values.exists(_.dataType != t)) None else Some(i -> ((t, values.map(_.value: Any).toSet)))
          }
        case _ => None
      }
    }
    // Two filters on one column: a file must pass both.
    val merged = keys.groupBy(_._1).map { case (i, all) => i -> ((all.head._2._1, all.map(_._2._2).reduce(_ intersect _))) }
    if (merged.isEmpty) None else Some(PartitionKeys(merged))
  }
}
