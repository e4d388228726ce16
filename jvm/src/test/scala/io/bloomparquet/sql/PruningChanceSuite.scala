package io.bloomparquet.sql

import org.apache.spark.sql.catalyst.expressions.{And, Attribute, AttributeReference, EqualTo, Expression, GreaterThan, Literal}
import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Join, JoinHint, LocalRelation, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.{IntegerType, StringType}

/** When a relation's literal predicates may prune at planning more than Spark's own reader does in its task. */
class PruningChanceSuite extends munit.FunSuite {
  private val year = AttributeReference("d_year", IntegerType)()
  private val name = AttributeReference("name", StringType)()
  private val pointOnYear: Expression = EqualTo(year, Literal(2000))
  private def mayPay(c: Expression, singleSplit: Boolean, filtered: Set[String] = Set.empty,
      handed: Expression => Boolean = _ => true): Boolean =
    PruningChance.literalsMayPay(c, singleSplit, filtered, handed)

  test("one split, no bloom filter on the column, the predicate handed to Spark: nothing to gain at planning") {
    assert(!mayPay(pointOnYear, singleSplit = true))
  }

  test("a bloom filter on the column, more than one split, or a predicate Spark's reader is not given: may pay") {
    assert(mayPay(pointOnYear, singleSplit = true, filtered = Set("d_year")))
    assert(mayPay(pointOnYear, singleSplit = false))
    assert(mayPay(pointOnYear, singleSplit = true, handed = _ => false))
  }

  test("only conjuncts that convert to bloom predicates count; any one of them may pay") {
    assert(!mayPay(GreaterThan(year, Literal(2000)), singleSplit = false)) // a range: no bloom predicate
    val both = And(GreaterThan(year, Literal(2000)), EqualTo(name, Literal("x")))
    assert(mayPay(both, singleSplit = true, filtered = Set("name")))
    assert(!mayPay(both, singleSplit = true, filtered = Set("d_year")))
  }

  test("join keys from a side that is no rows give no runtime filter; keys with rows may") {
    val fact = LocalRelation(AttributeReference("ss_customer_sk", IntegerType)())
    val customer = AttributeReference("c_customer_sk", IntegerType)()
    val key = fact.output.head
    def joined(keys: LocalRelation) =
      Join(fact, Project(keys.output, keys), Inner, Some(EqualTo(key, keys.output.head)), JoinHint.NONE)
    val anyKeys = (_: Attribute, _: LogicalPlan, _: Expression) => true
    val empty = LocalRelation(customer)
    val some = LocalRelation(Seq(customer), Seq(InternalRow(1)))
    assert(!PruningChance.JoinKeys.of(joined(empty)).mayPrune(fact.output, anyKeys))
    assert(PruningChance.JoinKeys.of(joined(some)).mayPrune(fact.output, anyKeys))
  }
}
