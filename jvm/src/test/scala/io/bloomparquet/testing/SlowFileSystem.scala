package io.bloomparquet.testing

import java.net.URI
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

import scala.jdk.CollectionConverters._

import org.apache.hadoop.fs.{FSDataInputStream, FSInputStream, Path}

/**
 * The local file system under the scheme `slow:` (test jar only), behaving like
 * an object store for reads: every open and every GET waits a set latency, and
 * GETs and bytes are counted per file. A GET is what a ranged GET would be on
 * S3: each positioned read, and the first stream read after an open or a seek
 * elsewhere (reads that follow on sequentially belong to the same GET).
 * Listings and statuses cost nothing and are not counted (the same for every
 * reader). Settings and counts are JVM-wide (executors of `local[n]` share them).
 */
class SlowFileSystem extends LocalUnderScheme {
  override def getUri: URI = SlowFileSystem.Uri
  override def getScheme: String = SlowFileSystem.Scheme

  override def open(f: Path, bufferSize: Int): FSDataInputStream = {
    val counts = SlowFileSystem.countsOf(f)
    counts.opens.incrementAndGet()
    SlowFileSystem.pause(SlowFileSystem.openLatencyMs)
    new FSDataInputStream(new CountingStream(super.open(f, bufferSize), counts))
  }
}

object SlowFileSystem {
  val Scheme = "slow"
  val Uri: URI = URI.create(s"$Scheme:///")

  /** What one file cost since the last [[reset]]. */
  final class Counts {
    val opens = new AtomicLong
    val gets = new AtomicLong
    val bytes = new AtomicLong
  }

  private val counts = new ConcurrentHashMap[String, Counts]()
  @volatile private var getLatencyMs = 0L
  @volatile private var openLatencyMs = 0L

  /** Hadoop settings that mount this file system under `slow:`. */
  def settings(): java.util.Map[String, String] = Map(s"fs.$Scheme.impl" -> classOf[SlowFileSystem].getName).asJava

  /** Milliseconds each GET and each open waits (0: none). */
  def setLatencyMs(perGet: Long, perOpen: Long): Unit = { getLatencyMs = perGet; openLatencyMs = perOpen }

  def reset(): Unit = counts.clear()

  private def key(f: Path): String = f.toUri.getPath
  private[testing] def countsOf(f: Path): Counts = counts.computeIfAbsent(key(f), _ => new Counts)
  private[testing] def get(c: Counts): Unit = { c.gets.incrementAndGet(); pause(getLatencyMs) }
  private def pause(ms: Long): Unit = if (ms > 0) Thread.sleep(ms)

  /** (opens, GETs, bytes) of one file (a local path or a `slow:` URI). */
  def of(path: String): Array[Long] = Option(counts.get(key(new Path(path))))
    .fold(Array(0L, 0L, 0L))(c => Array(c.opens.get, c.gets.get, c.bytes.get))

  /** Sums over every file since the last [[reset]]: (files touched, opens, GETs, bytes). */
  def totals(): Array[Long] = {
    val all = counts.values.asScala
    Array(all.size.toLong, all.map(_.opens.get).sum, all.map(_.gets.get).sum, all.map(_.bytes.get).sum)
  }
}

/** Counts GETs and bytes of one open file; see [[SlowFileSystem]]. */
private final class CountingStream(in: FSDataInputStream, counts: SlowFileSystem.Counts) extends FSInputStream {
  private var startsGet = true

  private def streamGet(): Unit = if (startsGet) { startsGet = false; SlowFileSystem.get(counts) }
  private def got(n: Int): Unit = if (n > 0) counts.bytes.addAndGet(n.toLong)

  override def seek(pos: Long): Unit = {
    if (pos != in.getPos) startsGet = true
    in.seek(pos)
  }
  override def getPos: Long = in.getPos
  override def seekToNewSource(targetPos: Long): Boolean = false

  override def read(): Int = {
    streamGet()
    val b = in.read()
    if (b >= 0) got(1)
    b
  }

  override def read(b: Array[Byte], off: Int, len: Int): Int =
    if (len == 0) 0
    else {
      streamGet()
      val n = in.read(b, off, len)
      got(n)
      n
    }

  override def read(position: Long, b: Array[Byte], off: Int, len: Int): Int = {
    SlowFileSystem.get(counts)
    val n = in.read(position, b, off, len)
    got(n)
    n
  }

  override def readFully(position: Long, b: Array[Byte], off: Int, len: Int): Unit = {
    SlowFileSystem.get(counts)
    in.readFully(position, b, off, len)
    got(len)
  }

  override def available(): Int = in.available()
  override def close(): Unit = in.close()
}
