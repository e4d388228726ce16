package io.bloomparquet.compat

import io.bloomparquet.compat.CatalystPlans.PrunableJoin
import org.apache.spark.sql.catalyst.expressions.{Add, And, AttributeReference, EqualTo, GreaterThan, Literal}
import org.apache.spark.sql.catalyst.plans.{FullOuter, Inner, JoinType, LeftAnti, LeftOuter, LeftSemi, RightOuter}
import org.apache.spark.sql.catalyst.plans.logical.{BROADCAST, HintInfo, Join, JoinHint, LocalRelation}
import org.apache.spark.sql.types.LongType

class PrunableJoinSuite extends munit.FunSuite {
  private val (a, b) = (AttributeReference("a", LongType)(), AttributeReference("b", LongType)())
  private val (x, y) = (AttributeReference("x", LongType)(), AttributeReference("y", LongType)())
  private val (left, right) = (LocalRelation(a, b), LocalRelation(x, y))
  private val condition = And(And(EqualTo(x, a), EqualTo(Add(b, Literal(1L)), y)), And(GreaterThan(a, x), EqualTo(b, Literal(3L))))

  private def join(t: JoinType, hint: JoinHint = JoinHint.NONE) = Join(left, right, t, Some(condition), hint)
  private def sides(t: JoinType, hint: JoinHint = JoinHint.NONE) = PrunableJoin.unapply(join(t, hint)).get

  test("the sides a join drops unmatched rows of, left first, with the equalities oriented to each") {
    val leftFirst = Map[JoinType, Seq[Boolean]](Inner -> Seq(true, false), LeftSemi -> Seq(true), RightOuter -> Seq(true),
      LeftOuter -> Seq(false), FullOuter -> Nil, LeftAnti -> Nil)
    leftFirst.foreach { case (t, expected) =>
      assertEquals(sides(t).map(_.isLeft), expected, t)
    }
    val (l, r) = (sides(Inner).head, sides(Inner)(1))
    assertEquals((l.plan, l.keys, r.plan, r.keys), (left, right, right, left))
    // An equality with a literal, and a comparison, are no keys.
    assertEquals(l.equalities, Seq(a -> x, Add(b, Literal(1L)) -> y))
    assertEquals(r.equalities, Seq(x -> a, y -> Add(b, Literal(1L))))
    assertEquals(PrunableJoin.unapply(Join(left, right, Inner, None, JoinHint.NONE)), None)
  }

  test("a side knows whether the other is hinted for broadcast, and is replaced in the join it came from") {
    val hinted = JoinHint(None, Some(HintInfo(Some(BROADCAST))))
    val (l, r) = (sides(Inner, hinted).head, sides(Inner, hinted)(1))
    assertEquals((l.keysHinted, r.keysHinted), (true, false))
    val other = LocalRelation(a, b)
    assertEquals(l.in(join(Inner), other).children, Seq(other, right))
    assertEquals(r.in(join(Inner), other).children, Seq(left, other))
  }
}
