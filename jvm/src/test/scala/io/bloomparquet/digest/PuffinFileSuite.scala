package io.bloomparquet.digest

import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets.UTF_8

import io.bloomparquet.digest.PuffinFile.NewBlob

/** The Puffin container: what is written reads back; a damaged or foreign tail is refused, saying why. */
class PuffinFileSuite extends munit.FunSuite {
  private val blobs = Seq(
    NewBlob("bloomparquet-test-a", Nil, Map("column" -> "k", "blocks" -> "64"), Array.fill[Byte](100)(7)),
    NewBlob("bloomparquet-test-b", Seq(3, 4), Map.empty, Array[Byte](1, 2, 3)))

  private def file(properties: Map[String, String] = Map("created-by" -> "bloomparquet test")): (Array[Byte], PuffinFooter) = {
    val out = new ByteArrayOutputStream()
    val footer = PuffinFile.write(out, blobs, properties)
    (out.toByteArray, footer)
  }

  test("a written file reads back: blobs where the footer says, properties kept") {
    val (bytes, written) = file()
    assertEquals(new String(bytes.take(4), UTF_8), "PFA1")
    assertEquals(new String(bytes.takeRight(4), UTF_8), "PFA1")
    val read = PuffinFile.footer(bytes, bytes.length).fold(why => fail(why), identity)
    assertEquals(read, written)
    assertEquals(read.blobs.map(b => (b.kind, b.offset, b.length)),
      Seq(("bloomparquet-test-a", 4L, 100L),
        ("bloomparquet-test-b", 104L, 3L)))
    assertEquals(bytes.slice(104, 107).toSeq, Seq[Byte](1, 2, 3))
    assertEquals(read.properties, Map("created-by" -> "bloomparquet test"))
    assertEquals(read.blobs.head.properties, Map("column" -> "k", "blocks" -> "64"))
  }

  test("the trailer alone gives the footer's length: one read of the tail finds it") {
    val (bytes, _) = file()
    val length = PuffinFile.footerLength(bytes.takeRight(PuffinFile.TrailerBytes)).fold(why => fail(why), identity)
    val tail = bytes.takeRight(length)
    assertEquals(PuffinFile.footer(tail, bytes.length).map(_.blobs.size), Right(2))
    assert(PuffinFile.footer(tail.drop(1), bytes.length).left.exists(_.contains("only")))
  }

  test("the footer written follows Iceberg's spec: required snapshot-id and sequence-number, little-endian length") {
    val (bytes, _) = file(Map.empty)
    val length = PuffinFile.footerLength(bytes.takeRight(12)).toOption.get
    val payload = new String(bytes, bytes.length - length + 4, length - 16, UTF_8)
    assert(payload.contains("\"snapshot-id\":-1") && payload.contains("\"sequence-number\":-1"), payload)
    assert(payload.contains("\"fields\":[3,4]"), payload)
    val size = java.nio.ByteBuffer.wrap(bytes, bytes.length - 12, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt
    assertEquals(size, length - 16)
  }

  test("damage is refused with a reason, never thrown") {
    val (bytes, _) = file()
    def refused(b: Array[Byte], length: Long = -1): String =
      PuffinFile.footer(b, if (length < 0) b.length else length).left.getOrElse(fail("read a damaged file"))
    assert(refused(bytes.dropRight(1)).contains("magic"))
    assert(refused(bytes.take(11)).contains("no Puffin trailer"))
    val flags = bytes.clone(); flags(flags.length - 8) = 1
    assert(refused(flags).contains("compressed"))
    val huge = bytes.clone(); huge(huge.length - 9) = 0x7f
    assert(refused(huge).contains("payload of"))
    val json = bytes.clone(); json(json.length - 13) = 'x' // the payload's closing brace
    assert(refused(json).contains("JSON"))
    assert(refused(bytes, 50).contains("in a file of 50"))
    // A file truncated in its blobs: the footer's blob ranges pass the end of what precedes the footer.
    val length = PuffinFile.footerLength(bytes.takeRight(12)).toOption.get
    val truncated = bytes.take(50) ++ bytes.takeRight(length)
    assert(refused(truncated).contains("outside the file's blobs"))
    assert(refused(Array.fill[Byte](64)(0)).contains("magic"))
  }
}
