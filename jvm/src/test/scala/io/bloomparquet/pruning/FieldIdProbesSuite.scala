package io.bloomparquet.pruning

import io.bloomparquet.pruning.BloomPredicate.ColumnIn
import io.bloomparquet.pruning.CompiledPredicate.{Const, Leaf}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64
import org.apache.parquet.schema.Types
import org.apache.spark.sql.types.LongType

/**
 * A probe that carries field ids (a reader matching columns by id: Delta's column mapping in
 * `id` mode, Iceberg) binds to the file's column carrying those ids at every level, whatever its
 * name there (a renamed column); a file with no such column is not probed.
 */
class FieldIdProbesSuite extends munit.FunSuite {

  private val schema = Types.buildMessage()
    .required(INT64).id(1).named("k")
    .required(INT64).id(2).named("v")
    .required(INT64).named("plain")
    .requiredGroup().id(3).required(INT64).id(4).named("x").named("s")
    .named("m")

  private def compiled(path: Seq[String], ids: Seq[Int]) =
    CompiledPredicate.compile(ColumnIn(path, LongType, IndexedSeq(7L), ids), schema, caseSensitive = true)

  test("the ids the column carries: probed") {
    assert(compiled(Seq("k"), Seq(1)).isInstanceOf[Leaf])
    assert(compiled(Seq("s", "x"), Seq(3, 4)).isInstanceOf[Leaf])
  }

  test("the ids decide, not the name: the column carrying them is probed") {
    assertEquals(compiled(Seq("k"), Seq(2)), compiled(Seq("v"), Seq(2)))
    assertEquals(compiled(Seq("plain"), Seq(1)), compiled(Seq("k"), Seq(1)))
    assertEquals(compiled(Seq("renamed", "y"), Seq(3, 4)), compiled(Seq("s", "x"), Seq(3, 4)))
  }

  test("no column carries the ids at every level: not probed") {
    assertEquals(compiled(Seq("s", "x"), Seq(3, 5)), Const(true))
    assertEquals(compiled(Seq("s", "x"), Seq(9, 4)), Const(true))
    assertEquals(compiled(Seq("k"), Seq(3)), Const(true)) // a group's id
    assertEquals(compiled(Seq("k"), Seq(4)), Const(true)) // a nested leaf's id, asked at the top level
  }

  test("an id two columns carry (a broken writer): not probed") {
    val twice = Types.buildMessage().required(INT64).id(1).named("a").required(INT64).id(1).named("b").named("m")
    assertEquals(CompiledPredicate.compile(ColumnIn(Seq("a"), LongType, IndexedSeq(7L), Seq(1)), twice, caseSensitive = true),
      Const(true))
  }

  test("no ids asked: matched by name as always") {
    assert(compiled(Seq("plain"), Nil).isInstanceOf[Leaf])
    assert(compiled(Seq("k"), Nil).isInstanceOf[Leaf])
  }
}
