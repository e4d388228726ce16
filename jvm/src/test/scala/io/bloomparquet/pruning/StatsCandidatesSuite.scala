package io.bloomparquet.pruning

import java.util.Collections

import scala.util.Random

import io.bloomparquet.pruning.CompiledPredicate.Leaf
import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.hadoop.metadata.{BlockMetaData, ColumnChunkMetaData, ColumnPath, CompressionCodecName}
import org.apache.parquet.io.api.Binary
import org.apache.parquet.schema.{MessageType, MessageTypeParser}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * Binary search over literals sorted at compile time keeps exactly the values a
 * linear min/max check keeps, in each type's own statistics order: signed ints,
 * unsigned bytes for strings (non-ASCII sorts high), signed two's complement
 * for FIXED_LEN_BYTE_ARRAY decimals.
 */
class StatsCandidatesSuite extends munit.FunSuite {

  private val random = new Random(20261122)

  private case class Case(schema: String, sparkType: DataType, literal: () => Any)

  private val cases = Seq(
    Case("required int64 c;", LongType, () => random.nextLong() % 1000),
    Case("required int32 c;", IntegerType, () => random.nextInt(2000) - 1000),
    Case("required binary c (UTF8);", StringType,
      () => UTF8String.fromString(Seq.fill(random.nextInt(3))(Seq("a", "b", "z", "é", "日", "")(random.nextInt(6))).mkString)),
    Case("required fixed_len_byte_array(9) c (DECIMAL(20,2));", DecimalType(20, 2),
      () => Decimal(BigDecimal(random.nextLong() % 100000, 2), 20, 2)))

  private def leaf(c: Case, schema: MessageType, values: IndexedSeq[Any]): Leaf =
    CompiledPredicate.compile(BloomPredicate.ColumnIn(Seq("c"), c.sparkType, values), schema, caseSensitive = true) match {
      case l: Leaf => l
      case other => fail(s"expected a leaf, got $other")
    }

  private def block(schema: MessageType, bounds: Seq[Any]): BlockMetaData = {
    val t = schema.getType(0).asPrimitiveType
    val stats: Statistics[_] = Statistics.createStats(t)
    bounds.foreach {
      case v: java.lang.Long => stats.updateStats(v.longValue)
      case v: java.lang.Integer => stats.updateStats(v.intValue)
      case v: Binary => stats.updateStats(v)
      case v => fail(s"no statistics form for $v")
    }
    val b = new BlockMetaData()
    b.addColumn(ColumnChunkMetaData.get(ColumnPath.get("c"), t, CompressionCodecName.UNCOMPRESSED, null,
        Collections.emptySet(), stats, 4L, 0L, 100L, 10L, 10L))
    b
  }

  for (c <- cases) test(s"sorted search == linear check: ${c.sparkType.simpleString}") {
    val schema = MessageTypeParser.parseMessageType(s"message m { ${c.schema} }")
    for (_ <- 0 until 300) {
      val sorted = leaf(c, schema, IndexedSeq.fill(16 + random.nextInt(100))(c.literal()))
      val order = sorted.probe match {
        case PhysicalProbe.AnyOf(_, Some(o)) => o
        case other => fail(s"expected sorted values, got $other")
      }
      val linear = sorted.copy(probe = PhysicalProbe.AnyOf(random.shuffle(sorted.probe.asInstanceOf[PhysicalProbe.AnyOf].values)))
      // Row-group bounds drawn from other literals of the same type, so they fall among, below and above ours.
      val others = leaf(c, schema, IndexedSeq.fill(16)(c.literal())).probe.asInstanceOf[PhysicalProbe.AnyOf].values
      val bounds: Seq[Any] = Seq.fill(1 + random.nextInt(2))(others(random.nextInt(others.size)).statsValue.get)
      val b = block(schema, bounds)
      assert(order == b.getColumns.get(0).getStatistics.comparator(), "the binary search path must be the one taken")
      val fast = RowGroupPruner.statsCandidates(sorted, b).map(_.toSet)
      val slow = RowGroupPruner.statsCandidates(linear, b).map(_.toSet)
      assertEquals(fast, slow)
      val min: Any = bounds.minBy(identity)(order.compare(_, _))
      val max: Any = bounds.maxBy(identity)(order.compare(_, _))
      val brute = linear.probe.asInstanceOf[PhysicalProbe.AnyOf].values
        .filter(v => order.compare(v.statsValue.get, min) >= 0 && order.compare(v.statsValue.get, max) <= 0).toSet
      assertEquals(fast, Some(brute))
    }
  }

  test("short lists stay unsorted; a value without a statistics form keeps the list unsorted") {
    val schema = MessageTypeParser.parseMessageType("message m { required int64 c; }")
    assertEquals(leaf(cases.head, schema, IndexedSeq(3L, 1L, 2L)).probe,
      PhysicalProbe.AnyOf(leaf(cases.head, schema,
          IndexedSeq(3L, 1L, 2L)).probe.asInstanceOf[PhysicalProbe.AnyOf].values, None))
    val doubles = MessageTypeParser.parseMessageType("message m { required double c; }")
    val d = CompiledPredicate.compile(BloomPredicate.ColumnIn(Seq("c"), DoubleType, IndexedSeq.tabulate(40)(_.toDouble)),
      doubles, caseSensitive = true)
    assert(d.asInstanceOf[Leaf].probe.asInstanceOf[PhysicalProbe.AnyOf].sortedBy.isEmpty)
  }
}
