package io.bloomparquet.schema

import io.bloomparquet.schema.Unresolved._
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.{BINARY, INT32, INT64}
import org.apache.parquet.schema.{MessageType, Types}
import org.apache.spark.sql.types._

class ColumnResolverSuite extends munit.FunSuite {

  // id and ID both; a top-level `a.b` next to struct a with field b; a space; an array.
  private val spark = StructType(Seq(
      StructField("id", LongType), StructField("ID", IntegerType), StructField("Name", StringType),
      StructField("a.b", IntegerType), StructField("a", StructType(Seq(StructField("b", LongType), StructField("C", StringType)))),
      StructField("my col", StringType), StructField("tags", ArrayType(StringType))))

  private val parquet: MessageType = Types.buildMessage()
    .required(INT64).named("id").required(INT32).named("ID").optional(BINARY).named("Name")
    .optional(INT32).named("a.b")
    .optionalGroup().optional(INT64).named("b").optional(BINARY).named("C").named("a")
    .optional(BINARY).named("my col")
    .optionalGroup().repeatedGroup().optional(BINARY).named("element").named("list").named("tags")
    .named("spark_schema")

  private def parse(name: String) = ColumnName.parse(name).toOption.get
  private def sparkAt(name: String, caseSensitive: Boolean) = ColumnResolver.spark(spark, parse(name), caseSensitive)
  private def leafAt(name: String, caseSensitive: Boolean) =
    ColumnResolver.parquet(parquet, parse(name), caseSensitive).map(l => (l.index, l.path))

  test("parse: dots split struct fields, backticks quote, doubled backticks escape, spaces are kept") {
    assertEquals(parse("a.b"), Seq("a", "b"))
    assertEquals(parse("`a.b`"), Seq("a.b"))
    assertEquals(parse("`a.b`.c"), Seq("a.b", "c"))
    assertEquals(parse("`x``y`"), Seq("x`y"))
    assertEquals(parse("`my col`"), Seq("my col"))
    assertEquals(parse("my col"), Seq("my col"))
    assertEquals(parse("Name"), Seq("Name"))
    Seq("`a", "a..b", "a.", "`a`b").foreach(bad => assert(ColumnName.parse(bad).isLeft, bad))
  }

  test("Spark schema: exact with case, the one match without; two matches are ambiguous") {
    assertEquals(sparkAt("Name", caseSensitive = true), Right(SparkColumn(Seq("Name"), StringType)))
    assertEquals(sparkAt("name", caseSensitive = true), Left(Missing(Nil, spark.fieldNames.toSeq)))
    assertEquals(sparkAt("NAME", caseSensitive = false), Right(SparkColumn(Seq("Name"), StringType)))
    assertEquals(sparkAt("ID", caseSensitive = true), Right(SparkColumn(Seq("ID"), IntegerType)))
    assertEquals(sparkAt("id", caseSensitive = false), Left(Ambiguous(Nil, Seq("id", "ID"))))
  }

  test("Spark schema: struct paths, spelled as the schema spells them; any type; only structs are entered") {
    assertEquals(sparkAt("A.c", caseSensitive = false), Right(SparkColumn(Seq("a", "C"), StringType)))
    assertEquals(sparkAt("a.c", caseSensitive = true), Left(Missing(Seq("a"), Seq("b", "C"))))
    assertEquals(sparkAt("a", caseSensitive = true).map(_.path), Right(Seq("a")))
    assertEquals(sparkAt("tags", caseSensitive = true), Right(SparkColumn(Seq("tags"), ArrayType(StringType))))
    assertEquals(sparkAt("tags.element", caseSensitive = true), Left(NotAStruct(Seq("tags"))))
    assertEquals(sparkAt("a.b.x", caseSensitive = true), Left(NotAStruct(Seq("a", "b"))))
    assertEquals(sparkAt("`my col`", caseSensitive = true), Right(SparkColumn(Seq("my col"), StringType)))
  }

  test("a dotted top-level name resolves only quoted; unquoted it is the struct field") {
    assertEquals(sparkAt("`a.b`", caseSensitive = true), Right(SparkColumn(Seq("a.b"), IntegerType)))
    assertEquals(sparkAt("a.b", caseSensitive = true), Right(SparkColumn(Seq("a", "b"), LongType)))
    assertEquals(leafAt("`A.B`", caseSensitive = false), Right((3, Seq("a.b"))))
    assertEquals(leafAt("a.b", caseSensitive = false), Right((4, Seq("a", "b"))))
  }

  test("Parquet schema: leaf index is the chunk index; case rule as for Spark") {
    assertEquals(leafAt("id", caseSensitive = true), Right((0, Seq("id"))))
    assertEquals(leafAt("ID", caseSensitive = true), Right((1, Seq("ID"))))
    assertEquals(leafAt("Id", caseSensitive = false), Left(Ambiguous(Nil, Seq("id", "ID"))))
    assertEquals(leafAt("name", caseSensitive = false), Right((2, Seq("Name"))))
    assertEquals(leafAt("name", caseSensitive = true).left.map(_.getClass), Left(classOf[Missing]))
    assertEquals(leafAt("a.C", caseSensitive = true), Right((5, Seq("a", "C"))))
    assertEquals(leafAt("`my col`", caseSensitive = true), Right((6, Seq("my col"))))
  }

  test("Parquet schema: groups, repeated fields and missing columns are not leaves") {
    assertEquals(leafAt("a", caseSensitive = true), Left(NotALeaf(Seq("a"))))
    assertEquals(leafAt("tags", caseSensitive = true), Left(NotALeaf(Seq("tags"))))
    assertEquals(leafAt("tags.list.element", caseSensitive = true), Left(Repeated(Seq("tags", "list", "element"))))
    assertEquals(leafAt("id.x", caseSensitive = true), Left(NotAStruct(Seq("id"))))
    assertEquals(leafAt("a.x", caseSensitive = true), Left(Missing(Seq("a"), Seq("b", "C"))))
    assertEquals(leafAt("nope", caseSensitive = false).left.map(_.getClass), Left(classOf[Missing]))
  }

  test("leaf paths: the index of the one leaf at a path") {
    val leaves = Seq(Seq("x"), Seq("s", "y"), Seq("s", "Y"), Seq("s.y"))
    assertEquals(ColumnResolver.leaf(leaves, Seq("s", "Y"), caseSensitive = true), Right(2))
    assertEquals(ColumnResolver.leaf(leaves, Seq("s.y"), caseSensitive = true), Right(3))
    assertEquals(ColumnResolver.leaf(leaves, Seq("s", "y"), caseSensitive = false), Left(Ambiguous(Seq("s"), Seq("y", "Y"))))
    assertEquals(ColumnResolver.leaf(Nil, Seq("x"), caseSensitive = true), Left(Missing(Nil, Nil)))
  }
}
