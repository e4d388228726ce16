package io.bloomparquet.digest

import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}

import io.bloomparquet.digest.TableDigest.Opened
import io.bloomparquet.planning.PlanningPool
import org.apache.hadoop.fs.FileSystem

/**
 * The rows of a digest's classes a probe needs, fetched before probing: from the tail planning
 * read where they lie in it, else one ranged read each, `parallelism` at once (a row is a block of
 * every entry of its class: 32 MB at a million entries). Each row is checked against its class's
 * checksum; a damaged row throws, and the digest is then refused.
 */
private final class DigestRows(fs: FileSystem, opened: Opened) {
  private val fetched = new java.util.concurrent.ConcurrentHashMap[RowRead, Array[Int]]()
  private val reads = new AtomicInteger()
  private val bytes = new AtomicLong()

  def requests: Int = reads.get
  def bytesRead: Long = bytes.get

  /** Fetches `rows` (each once), `parallelism` of those beyond the tail at once. */
  def fetch(rows: Seq[RowRead], parallelism: Int): Unit = {
    val (inTail, beyond) = rows.distinct.partition(_.offset >= opened.tailStart)
    inTail.foreach { row =>
      val at = (row.offset - opened.tailStart).toInt
      fetched.put(row, checked(row, java.util.Arrays.copyOfRange(opened.tail, at, at + row.length.toInt)))
    }
    PlanningPool.forEachFile[RowRead, Unit](beyond, parallelism, _ => None, row => fetched.put(row, checked(row, read(row))))
  }

  /** A row's words: fetched by [[fetch]], or read now. */
  def words(row: RowRead): Array[Int] = fetched.computeIfAbsent(row, r => checked(r, read(r)))

  private def read(row: RowRead): Array[Byte] = {
    val in = TableDigest.openKnown(fs, opened.path, opened.tailStart + opened.tail.length)
    try {
      val out = new Array[Byte](row.length.toInt)
      in.readFully(row.offset, out)
      reads.incrementAndGet()
      bytes.addAndGet(out.length.toLong)
      out
    } finally in.close()
  }

  private def checked(row: RowRead, rowBytes: Array[Byte]): Array[Int] = {
    val stated = opened.digest.index.classes(row.classIndex).rowChecksums(row.row)
    if (BloomDigest.rowChecksum(rowBytes, 0, rowBytes.length) != stated)
      throw new java.io.IOException(s"row ${row.row} of digest class ${row.classIndex} does not match its checksum")
    BloomDigest.words(rowBytes)
  }
}
