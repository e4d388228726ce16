package io.bloomparquet.digest

import java.io.{EOFException, FileNotFoundException}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.ExecutionException

import scala.util.control.NonFatal

import org.apache.hadoop.fs.{FSDataInputStream, FileStatus, FileSystem, Path}

/**
 * A table's current digest, as planning opens it: the pointer `_bloomparquet/digest` names the
 * digest file, its length and where its index starts, so the digest's tail (index and footer) is
 * read whole with no status call: two reads however many files the index lists (a pointer that
 * gives no index start, or a wrong one, costs a third read when the index is larger than the first
 * read; the footer decides). A pointer or digest that is missing, damaged or of another version is
 * an answer, never an error: planning then judges every file on its own.
 */
object TableDigest {
  val Folder = "_bloomparquet"
  val PointerFile = "digest"

  /** The first read of a digest's end: its index fits for tens of thousands of files. */
  val TailGuessBytes: Int = 1 << 20

  /**
   * What the pointer says: the digest's file name (in the same folder), its length and the offset of
   * its index blob (None in a pointer written without it). Its text has one length, [[Pointer.Bytes]]
   * (the numbers padded), so planning opens it with no status call.
   */
  final case class Pointer(name: String, length: Long, indexStart: Option[Long]) {
    def text: String = f"$name%s $length%015d" + indexStart.fold("")(i => f" $i%015d") + "\n"
  }

  /** A digest file's name as the builder writes it, with the time it was written (epoch milliseconds). */
  object DigestName {
    private val Name = """digest-([0-9]{1,18})-[0-9a-f-]{36}\.puffin""".r
    def unapply(name: String): Option[Long] = name match {
      case Name(time) => Some(time.toLong)
      case _ => None
    }
  }

  object Pointer {
    /** Bytes of a pointer's text: a digest's name with a 13-digit time, twice a space and 15 digits, a newline. */
    val Bytes: Int = "digest-".length + 13 + 1 + 36 + ".puffin".length + 2 * (1 + 15) + 1

    private val Line = """(digest-[0-9]+-[0-9a-f-]{36}\.puffin) ([0-9]{1,15})(?: ([0-9]{1,15}))?""".r

    /** The pointer a file's text holds, if it is one: a name the builder writes, nothing else. */
    def parse(text: String): Option[Pointer] = text.trim match {
      case Line(name, length, indexStart) => Some(Pointer(name, length.toLong, Option(indexStart).map(_.toLong)))
      case _ => None
    }
  }

  /** What looking for a table's digest found, and the reads it took. */
  sealed trait Found {
    def reads: Int
  }

  /** No pointer: the table has no digest. */
  final case class Missing(reads: Int) extends Found

  /** A pointer or digest that cannot be trusted, and why. */
  final case class Refused(why: String, reads: Int) extends Found

  /** The digest, opened; `tail` its last bytes, from `tailStart` on (rows of classes in it need no read). */
  final case class Opened(digest: OpenDigest, path: Path, tail: Array[Byte], tailStart: Long, reads: Int,
      bytesRead: Long) extends Found

  /** The current digest of the table at `root`, its tail read `tailGuess` bytes at first. Never throws. */
  def open(fs: FileSystem, root: Path, tailGuess: Int = TailGuessBytes): Found =
    pointed(fs, root).fold(identity, openDigest(fs, _, tailGuess))

  /**
   * [[open]], its pointer read as it is now where a file system's stream may serve it from a cache
   * of objects' metadata (S3A's analytics stream keeps one for a day by default: a replaced pointer
   * would read as it was). For a build, which starts from the current digest; planning reads
   * pointers with no status call, and holds them for [[HeldDigests.PointerMillis]] anyway.
   */
  def openAsItIsNow(fs: FileSystem, root: Path, tailGuess: Int): Found =
    pointed(fs, root, asItIsNow = S3aStreams.analytics(fs)).fold(identity, openDigest(fs, _, tailGuess))

  /**
   * [[open]] as planning asks, with `useCache` through this JVM's [[HeldDigests]]: the pointer a
   * lookup of `root` read in the last [[HeldDigests.PointerMillis]] (so a warm lookup makes no
   * request; a digest published since is used once that has passed, and any digest is checked
   * against the files' versions, so an older one only decides fewer files), and the digest it
   * names where held. `reads` counts only the requests made.
   */
  def openHeld(fs: FileSystem, root: Path, useCache: Boolean): Found =
    if (!useCache) open(fs, root)
    else {
      val table = fs.makeQualified(root).toString
      val (pointer, pointerReads) = HeldDigests.pointer(table).map(_ -> 0).getOrElse {
        val read = pointed(fs, root)
        HeldDigests.putPointer(table, read)
        read -> 1
      }
      pointer match {
        case Left(Missing(_)) => Missing(pointerReads)
        case Left(Refused(why, _)) => Refused(why, pointerReads)
        case Left(other) => other
        case Right(to) =>
          val key = s"${fs.makeQualified(to.path)} ${to.pointer.length}"
          HeldDigests.get(key).map(_.copy(reads = pointerReads, bytesRead = 0L)).getOrElse {
            openDigest(fs, to, TailGuessBytes) match {
              case o: Opened =>
                HeldDigests.put(key, o)
                o.copy(reads = o.reads - 1 + pointerReads)
              case Refused(why, reads) => Refused(why, reads - 1 + pointerReads)
              case other => other
            }
          }
      }
    }

  /** A pointer read, with the path of the digest it names. */
  final case class Pointed(path: Path, pointer: Pointer)

  /** The digest file the pointer of `root` names, or what was found instead. */
  private[digest] def pointed(fs: FileSystem, root: Path): Either[Found, Pointed] = pointed(fs, root, asItIsNow = false)

  private def pointed(fs: FileSystem, root: Path, asItIsNow: Boolean): Either[Found, Pointed] = {
    val folder = new Path(root, Folder)
    val pointerText = try Right(readSmall(fs, new Path(folder, PointerFile), Pointer.Bytes, asItIsNow))
    catch {
      case _: FileNotFoundException => Left(Missing(1))
      case NonFatal(e) => Left(Refused(s"digest pointer unreadable: $e", 1))
    }
    pointerText.flatMap(text =>
      Pointer.parse(text).map(p => Pointed(new Path(folder, p.name), p)).toRight(Refused("digest pointer names no digest", 1)))
  }

  /**
   * The most a pointer's index start makes the first read take: an index of millions of files. A
   * damaged pointer naming an earlier start then costs no more than this; the footer still decides.
   */
  val MaxIndexHintBytes: Long = 64L << 20

  /** Bytes of the first read of a digest's end: `tailGuess`, or from the index's start where the pointer gives one further back. */
  private def firstRead(pointer: Pointer, tailGuess: Int): Int = {
    val toIndex = pointer.indexStart.filter(_ > 0).map(pointer.length - _).filter(n => n > 0 && n <= MaxIndexHintBytes)
    math.min(pointer.length, math.max(tailGuess.toLong, toIndex.getOrElse(0L))).toInt
  }

  private def openDigest(fs: FileSystem, to: Pointed, tailGuess: Int): Found = {
    val (path, length) = (to.path, to.pointer.length)
    try {
      val in = openKnown(fs, path, length)
      try {
        val first = firstRead(to.pointer, tailGuess)
        val tail = new Array[Byte](first)
        in.readFully(length - first, tail)
        PuffinFile.footer(tail, length) match {
          case Left(why) => Refused(why, 2)
          case Right(footer) =>
            // The index is the last blob: where the first read did not reach it, read from its start.
            val indexStart = footer.blobs.find(_.kind == DigestIndex.BlobType).map(_.offset).getOrElse(length)
            if (indexStart >= length - first) BloomDigest.open(tail, length).fold(Refused(_, 2),
              Opened(_, path, tail,
                length - first, 2, first.toLong))
            else if (length - indexStart > Int.MaxValue - 8) Refused(s"digest index of ${length - indexStart} bytes", 2)
            else {
              val whole = new Array[Byte]((length - indexStart).toInt)
              in.readFully(indexStart, whole)
              BloomDigest.open(whole, length).fold(Refused(_, 3),
                Opened(_, path, whole, indexStart, 3,
                  first.toLong + whole.length))
            }
        }
      } finally in.close()
    } catch {
      case e: FileNotFoundException => Refused(s"the digest the pointer names is gone: $e", 2)
      case e: EOFException => Refused(s"the digest is shorter than the pointer says ($length bytes): $e", 2)
      case NonFatal(e) => Refused(s"digest unreadable: $e", 2)
    }
  }

  /**
   * The file at `path`, of `length` bytes as its pointer says, opened with no status call (an object
   * store's HEAD): a missing file fails on its first read.
   */
  private[digest] def openKnown(fs: FileSystem, path: Path, length: Long): FSDataInputStream =
    try fs.openFile(path).withFileStatus(new FileStatus(length, false, 1, 0L, 0L, path))
        .opt("fs.option.openfile.read.policy", "random").build().get()
    catch { case e: ExecutionException if e.getCause != null => throw e.getCause }

  /** The file at `path`, opened with its file system's own status of it (an object store's HEAD). */
  private def openWithStatus(fs: FileSystem, path: Path): FSDataInputStream =
    try fs.openFile(path).withFileStatus(fs.getFileStatus(path)).opt("fs.option.openfile.read.policy", "random").build().get()
    catch { case e: ExecutionException if e.getCause != null => throw e.getCause }

  /** A pointer's text: [[Pointer.Bytes]] bytes, read whole (a longer file is not a pointer: it does not parse). */
  private def readSmall(fs: FileSystem, path: Path, length: Int, withStatus: Boolean): String = {
    val in = if (withStatus) openWithStatus(fs, path) else openKnown(fs, path, length)
    try {
      val buf = new Array[Byte](length + 1)
      var n = 0
      var r = in.read(buf, 0, buf.length)
      while (r > 0 && n < buf.length) { n += r; r = if (n < buf.length) in.read(buf, n, buf.length - n) else -1 }
      new String(buf, 0, n, UTF_8)
    } finally in.close()
  }
}
