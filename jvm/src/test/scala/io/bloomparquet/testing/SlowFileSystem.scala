package io.bloomparquet.testing

import java.net.URI
import java.nio.ByteBuffer
import java.util.concurrent.{CompletableFuture, ConcurrentHashMap}
import java.util.concurrent.atomic.AtomicLong
import java.util.function.IntFunction

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FSDataInputStream, FSInputStream, FileRange, Path}
import org.apache.hadoop.fs.impl.OpenFileParameters

/**
 * The local file system under the scheme `slow:` (test jar only), behaving like
 * an object store for reads: every open (but one with the caller's status, as S3A's
 * `openFile`) and every GET waits a set latency, and
 * GETs and bytes are counted per file. A GET is what a ranged GET would be on
 * S3: each positioned read, and the first stream read after an open or a seek
 * elsewhere (reads that follow on sequentially belong to the same GET).
 * A vectored read's ranges are GETs fetched [[setParallelRanges]] at a time, as S3A fetches
 * them (4 by default): each round of them waits the latency once. With [[setMegabytesPerSecond]]
 * (and [[setDriverMegabytesPerSecond]], a bandwidth all streams share),
 * bytes take time too: each stream (and each range fetched at once) gets that bandwidth.
 * Listings cost nothing and are not counted; status calls cost nothing and are counted per file
 * (a caller's, not those of the local file system inside its own open and listing). Settings and counts are JVM-wide (executors of `local[n]` share them; executors of
 * their own take the settings from their Hadoop conf when the file system is first made there).
 */
class SlowFileSystem extends LocalUnderScheme {
  override def getUri: URI = SlowFileSystem.Uri
  override def getScheme: String = SlowFileSystem.Scheme

  // Executors in JVMs of their own (local-cluster) take the settings from the Hadoop conf: fs.slow.latencyMs,
  // fs.slow.megabytesPerSecond and fs.slow.jvmMegabytesPerSecond (each JVM's shared pipe: its network).
  override def initialize(name: URI, conf: Configuration): Unit = {
    super.initialize(name, conf)
    Option(conf.get(s"fs.${SlowFileSystem.Scheme}.latencyMs")).foreach(ms => SlowFileSystem.setLatencyMs(ms.toLong, ms.toLong))
    Option(conf.get(s"fs.${SlowFileSystem.Scheme}.megabytesPerSecond")).foreach(m => SlowFileSystem.setMegabytesPerSecond(m.toDouble))
    Option(conf.get(s"fs.${SlowFileSystem.Scheme}.jvmMegabytesPerSecond"))
      .foreach(m => SlowFileSystem.setDriverMegabytesPerSecond(m.toDouble))
  }

  override def open(f: Path, bufferSize: Int): FSDataInputStream = counted(f, bufferSize, SlowFileSystem.openLatencyMs)

  // A caller's status call is a request too (an object store's HEAD): counted per file (no latency: the
  // benchmarks' figures are GETs'). The local file system's own, inside its open and listing, are not.
  private val inside = ThreadLocal.withInitial[java.lang.Boolean](() => false)
  private def internally[T](body: => T): T = {
    val was = inside.get
    inside.set(true)
    try body
    finally inside.set(was)
  }

  override def getFileStatus(f: Path): org.apache.hadoop.fs.FileStatus = {
    val status = super.getFileStatus(f)
    if (status.isFile && !inside.get) SlowFileSystem.status(SlowFileSystem.countsOf(f))
    status
  }

  override def listStatus(f: Path): Array[org.apache.hadoop.fs.FileStatus] = internally(super.listStatus(f))

  // As S3A's: a file opened with the status its caller already holds asks for none (no request on open).
  override protected def openFileWithOptions(path: Path,
      parameters: OpenFileParameters): CompletableFuture[FSDataInputStream] =
    if (parameters.getStatus == null) super.openFileWithOptions(path, parameters)
    else CompletableFuture.completedFuture(counted(path, parameters.getBufferSize, latencyMs = 0))

  private def counted(f: Path, bufferSize: Int, latencyMs: Long): FSDataInputStream = {
    val counts = SlowFileSystem.countsOf(f)
    counts.opens.incrementAndGet()
    SlowFileSystem.pause(latencyMs)
    new FSDataInputStream(new CountingStream(internally(super.open(f, bufferSize)), counts))
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
    val vectoredReads = new AtomicLong
    val statuses = new AtomicLong
  }

  private val counts = new ConcurrentHashMap[String, Counts]()
  @volatile private var getLatencyMs = 0L
  @volatile private var openLatencyMs = 0L
  @volatile private var parallelRanges = 4
  @volatile private var bytesPerSecond = 0.0
  @volatile private var driverBytesPerSecond = 0.0
  // When the shared pipe of [[setDriverMegabytesPerSecond]] is next free, in System.nanoTime.
  private var pipeFreeAt = 0L

  /** Hadoop settings that mount this file system under `slow:`. */
  def settings(): java.util.Map[String, String] = Map(s"fs.$Scheme.impl" -> classOf[SlowFileSystem].getName).asJava

  /** Milliseconds each GET and each open waits (0: none). */
  def setLatencyMs(perGet: Long, perOpen: Long): Unit = { getLatencyMs = perGet; openLatencyMs = perOpen }

  /** The bandwidth of one stream (0: unlimited). */
  def setMegabytesPerSecond(mbps: Double): Unit = bytesPerSecond = mbps * 1e6

  /** The bandwidth of all streams at once, shared first come first served (0: unlimited). */
  def setDriverMegabytesPerSecond(mbps: Double): Unit = synchronized { driverBytesPerSecond = mbps * 1e6; pipeFreeAt = 0L }

  /**
   * The time `bytes` take at one stream's bandwidth, spread over `streams` at once, and no sooner
   * than the shared pipe carries them after the bytes queued before.
   */
  private[testing] def transfer(bytes: Long, streams: Int = 1): Unit = if (bytes > 0) {
    val started = System.nanoTime()
    val own = if (bytesPerSecond > 0) (bytes / (bytesPerSecond * streams) * 1e9).toLong else 0L
    val shared = if (driverBytesPerSecond <= 0) started
    else synchronized {
      pipeFreeAt = math.max(pipeFreeAt, started) + (bytes / driverBytesPerSecond * 1e9).toLong
      pipeFreeAt
    }
    val until = math.max(started + own, shared)
    java.util.concurrent.locks.LockSupport.parkNanos(until - started)
  }

  /** GETs of one vectored read fetched at once. */
  def setParallelRanges(n: Int): Unit = parallelRanges = math.max(1, n)

  def reset(): Unit = counts.clear()

  /** Status calls of one file since the last [[reset]]. */
  def statusesOf(path: String): Long = Option(counts.get(key(new Path(path)))).fold(0L)(_.statuses.get)

  private[testing] def status(c: Counts): Unit = c.statuses.incrementAndGet()

  /** Vectored reads of one file since the last [[reset]]. */
  def vectoredReadsOf(path: String): Long = Option(counts.get(key(new Path(path)))).fold(0L)(_.vectoredReads.get)

  private def key(f: Path): String = f.toUri.getPath
  private[testing] def countsOf(f: Path): Counts = counts.computeIfAbsent(key(f), _ => new Counts)
  private[testing] def get(c: Counts): Unit = { c.gets.incrementAndGet(); pause(getLatencyMs) }

  /** `n` GETs of one vectored read: one latency per round of [[setParallelRanges]]. */
  private[testing] def vectoredGets(c: Counts, n: Int, bytes: Long): Unit = {
    c.vectoredReads.incrementAndGet()
    c.gets.addAndGet(n.toLong)
    pause(getLatencyMs * ((n + parallelRanges - 1) / parallelRanges))
    transfer(bytes, math.min(n, parallelRanges))
  }
  private[testing] def pause(ms: Long): Unit = if (ms > 0) Thread.sleep(ms)

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
  private def got(n: Int): Unit = if (n > 0) { counts.bytes.addAndGet(n.toLong); SlowFileSystem.transfer(n.toLong) }

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

  override def readVectored(ranges: java.util.List[_ <: FileRange], allocate: IntFunction[ByteBuffer]): Unit =
    VectoredGets.read(in, counts, ranges, allocate)

  override def available(): Int = in.available()
  override def close(): Unit = in.close()
}

/** A vectored read of a [[CountingStream]]: its own class, loaded only where Hadoop has vectored reads (not 3.3's). */
private object VectoredGets {
  def read(in: FSDataInputStream, counts: SlowFileSystem.Counts, ranges: java.util.List[_ <: FileRange],
      allocate: IntFunction[ByteBuffer]): Unit = {
    SlowFileSystem.vectoredGets(counts, ranges.size, ranges.asScala.map(_.getLength.toLong).sum)
    ranges.asScala.foreach { r =>
      val bytes = new Array[Byte](r.getLength)
      in.readFully(r.getOffset, bytes, 0, bytes.length)
      counts.bytes.addAndGet(bytes.length.toLong)
      val buffer = allocate.apply(r.getLength)
      buffer.put(bytes).flip()
      r.setData(CompletableFuture.completedFuture(buffer))
    }
  }
}
