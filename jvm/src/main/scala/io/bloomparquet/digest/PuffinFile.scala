package io.bloomparquet.digest

import java.io.OutputStream
import java.nio.charset.StandardCharsets.{US_ASCII, UTF_8}
import java.nio.{ByteBuffer, ByteOrder}

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.ObjectNode

/** A blob of a Puffin file as its footer describes it; `payload` bytes at `offset` in the file. */
final case class PuffinBlob(kind: String, fields: Seq[Int], offset: Long, length: Long, properties: Map[String, String])

/** A Puffin file's footer: its blobs and the file's properties. */
final case class PuffinFooter(blobs: Seq[PuffinBlob], properties: Map[String, String])

/**
 * The Puffin container (Iceberg's format for statistics and indexes beside a table's data):
 * `PFA1`, the blobs back to back, then the footer `PFA1`, a UTF-8 JSON payload, its length (4
 * bytes), flags (4 bytes) and `PFA1`; integers little-endian. A bloom digest is one, so Iceberg's
 * tools can list it and an Iceberg table can carry it per snapshot. This reads and writes what the
 * digest uses: uncompressed blobs and footer. Iceberg's own reader is in iceberg-core, too heavy a
 * dependency for Parquet directories.
 */
object PuffinFile {
  val Magic: Array[Byte] = "PFA1".getBytes(US_ASCII)

  /** After the footer's payload: its length, the flags and the magic. */
  val TrailerBytes: Int = 12

  /** No footer of ours comes near this: a larger length is damage. */
  val MaxFooterBytes: Int = 16 << 20

  private val mapper = new ObjectMapper()

  /** A blob to write: its type, the field ids it covers (Iceberg's; empty for a Parquet directory), properties and bytes. */
  final case class NewBlob(kind: String, fields: Seq[Int], properties: Map[String, String], payload: Array[Byte])

  /** Writes a whole file of `blobs` in order, with file `properties`; returns the blobs as its footer lists them. */
  def write(out: OutputStream, blobs: Seq[NewBlob], properties: Map[String, String]): PuffinFooter = {
    out.write(Magic)
    var offset = Magic.length.toLong
    val written = blobs.map { b =>
      out.write(b.payload)
      val at = PuffinBlob(b.kind, b.fields, offset, b.payload.length.toLong, b.properties)
      offset += b.payload.length
      at
    }
    val footer = PuffinFooter(written, properties)
    val payload = mapper.writeValueAsBytes(json(footer))
    out.write(Magic)
    out.write(payload)
    out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(payload.length).putInt(0).array())
    out.write(Magic)
    footer
  }

  /**
   * The footer's whole length (magic, payload, trailer) from the file's last [[TrailerBytes]] bytes,
   * or why they are not a Puffin trailer.
   */
  def footerLength(trailer: Array[Byte]): Either[String, Int] =
    if (trailer.length < TrailerBytes) Left(s"${trailer.length} bytes are no Puffin trailer")
    else {
      val t = ByteBuffer.wrap(trailer, trailer.length - TrailerBytes, TrailerBytes).order(ByteOrder.LITTLE_ENDIAN)
      val payload = t.getInt()
      val flags = t.getInt()
      if (!endsWithMagic(trailer)) Left("no Puffin magic at the end")
      else if (flags != 0) Left(s"footer flags $flags: a compressed footer is not read")
      else if (payload < 0 || payload > MaxFooterBytes) Left(s"footer payload of $payload bytes")
      else Right(Magic.length + payload + TrailerBytes)
    }

  /**
   * The footer, parsed from the file's last bytes (`tail`, at least the footer) of a file of
   * `fileLength` bytes, or why it is not a footer of a whole Puffin file: every blob must lie
   * between the leading magic and the footer.
   */
  def footer(tail: Array[Byte], fileLength: Long): Either[String, PuffinFooter] =
    footerLength(tail).flatMap { length =>
      val start = tail.length - length
      if (start < 0) Left(s"a footer of $length bytes, only ${tail.length} read")
      else if (fileLength < Magic.length + length) Left(s"a footer of $length bytes in a file of $fileLength")
      else if (!java.util.Arrays.equals(java.util.Arrays.copyOfRange(tail, start, start + Magic.length), Magic))
        Left("no Puffin magic before the footer payload")
      else {
        val payload = new String(tail, start + Magic.length, length - Magic.length - TrailerBytes, UTF_8)
        val blobsEnd = fileLength - length
        parse(payload).flatMap { f =>
          f.blobs.find(b => b.offset < Magic.length || b.length < 0 || b.offset + b.length > blobsEnd) match {
            case Some(b) => Left(s"blob ${b.kind} at ${b.offset}+${b.length} lies outside the file's blobs")
            case None => Right(f)
          }
        }
      }
    }

  private def endsWithMagic(bytes: Array[Byte]): Boolean =
    java.util.Arrays.equals(java.util.Arrays.copyOfRange(bytes, bytes.length - Magic.length, bytes.length), Magic)

  private def json(f: PuffinFooter): ObjectNode = {
    val root = mapper.createObjectNode()
    val blobs = root.putArray("blobs")
    f.blobs.foreach { b =>
      val node = blobs.addObject()
      node.put("type", b.kind)
      val fields = node.putArray("fields")
      b.fields.foreach(i => fields.add(i))
      // Required by the format, meaningful only inside an Iceberg table: -1 where there is none.
      node.put("snapshot-id", -1L)
      node.put("sequence-number", -1L)
      node.put("offset", b.offset)
      node.put("length", b.length)
      if (b.properties.nonEmpty) strings(node.putObject("properties"), b.properties)
    }
    if (f.properties.nonEmpty) strings(root.putObject("properties"), f.properties)
    root
  }

  private def strings(node: ObjectNode, values: Map[String, String]): Unit =
    values.toSeq.sortBy(_._1).foreach { case (k, v) => node.put(k, v) }

  private def parse(payload: String): Either[String, PuffinFooter] =
    try {
      val root = mapper.readTree(payload)
      val blobs = Option(root.get("blobs")).filter(_.isArray).getOrElse(throw new IllegalArgumentException("no blobs"))
      Right(PuffinFooter(blobs.elements.asScala.map(blob).toSeq, stringMap(root.get("properties"))))
    } catch { case NonFatal(e) => Left(s"footer is not Puffin's JSON: ${e.getMessage}") }

  private def blob(node: JsonNode): PuffinBlob = {
    def required(name: String): JsonNode =
      Option(node.get(name)).filterNot(_.isNull).getOrElse(throw new IllegalArgumentException(s"blob without $name"))
    val fields = required("fields")
    if (!fields.isArray || !required("type").isTextual || !required("offset").canConvertToLong ||
      !required("length").canConvertToLong) throw new IllegalArgumentException(s"malformed blob $node")
    PuffinBlob(required("type").asText, fields.elements.asScala.map(_.asInt).toSeq, required("offset").asLong,
      required("length").asLong, stringMap(node.get("properties")))
  }

  private def stringMap(node: JsonNode): Map[String, String] =
    if (node == null || node.isNull) Map.empty
    else if (!node.isObject) throw new IllegalArgumentException(s"properties are not an object: $node")
    else node.properties.asScala.map(e => e.getKey -> e.getValue.asText).toMap
}
