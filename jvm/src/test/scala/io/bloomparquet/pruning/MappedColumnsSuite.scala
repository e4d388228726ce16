package io.bloomparquet.pruning

import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn, NoMatch}
import org.apache.spark.sql.types.LongType

class MappedColumnsSuite extends munit.FunSuite {
  private def probe(name: String) = ColumnIn(Seq(name), LongType, IndexedSeq(1L))
  // Columns a table's files hold, with their ids; "gone" is not among them.
  private val ids = Map("a" -> 1, "b" -> 2)
  private def byId(c: ColumnIn): Option[ColumnIn] = ids.get(c.path.head).map(id => c.copy(fieldIds = Seq(id)))

  test("each probe carries what the mapping found for it") {
    assertEquals(BloomPredicate.mapColumns(AllOf(Seq(probe("a"), probe("b"))))(byId),
      Some(AllOf(Seq(probe("a").copy(fieldIds = Seq(1)), probe("b").copy(fieldIds = Seq(2))))))
  }

  test("an AND keeps what it can map, an OR only when it can map every branch") {
    assertEquals(BloomPredicate.mapColumns(AllOf(Seq(probe("a"), probe("gone"))))(byId), Some(probe("a").copy(fieldIds = Seq(1))))
    assertEquals(BloomPredicate.mapColumns(AnyOf(Seq(probe("a"), probe("gone"))))(byId), None)
    assertEquals(BloomPredicate.mapColumns(AllOf(Seq(probe("gone"), AnyOf(Seq(probe("b"), probe("gone"))))))(byId), None)
  }

  test("nothing to match stays nothing to match") {
    assertEquals(BloomPredicate.mapColumns(NoMatch)(byId), Some(NoMatch))
    assertEquals(BloomPredicate.mapColumns(AllOf(Seq(probe("a"), NoMatch)))(byId), Some(NoMatch))
  }
}
