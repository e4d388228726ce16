package io.bloomparquet.pruning

import io.bloomparquet.pruning.BloomPredicate.ColumnIn
import io.bloomparquet.pruning.CompiledPredicate.{Const, Leaf}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64
import org.apache.parquet.schema.Types
import org.apache.spark.sql.types.LongType

/**
 * A probe that carries field ids (a reader matching columns by id: Delta's column mapping in
 * `id` mode) binds to a file's column of its name only where that column carries those ids at
 * every level; elsewhere the file's column is another one (or unknown) to such a reader.
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

  test("other ids at any level, or none: not probed") {
    assertEquals(compiled(Seq("k"), Seq(2)), Const(true))
    assertEquals(compiled(Seq("s", "x"), Seq(3, 5)), Const(true))
    assertEquals(compiled(Seq("s", "x"), Seq(9, 4)), Const(true))
    assertEquals(compiled(Seq("plain"), Seq(1)), Const(true))
  }

  test("no ids asked: matched by name as always") {
    assert(compiled(Seq("plain"), Nil).isInstanceOf[Leaf])
    assert(compiled(Seq("k"), Nil).isInstanceOf[Leaf])
  }
}
