package io.bloomparquet.digest

import io.bloomparquet.digest.TableDigest.Opened

/**
 * The digests this JVM opened lately, by file and length: a digest file is never rewritten (a
 * new one gets a new name), so one held is the file's content, and a warm lookup reads only the
 * pointer. Bounded by the bytes of their tails, the most recently used kept.
 */
object HeldDigests {
  /** At most this many bytes of digest tails are held (and their decoded indexes, of the same order). */
  val MaxBytes: Long = 64L << 20

  private val held = new java.util.LinkedHashMap[String, Opened](16, 0.75f, true)
  private var bytes = 0L

  def get(key: String): Option[Opened] = synchronized(Option(held.get(key)))

  def put(key: String, digest: Opened): Unit = synchronized {
    if (digest.tail.length <= MaxBytes && !held.containsKey(key)) {
      held.put(key, digest)
      bytes += digest.tail.length
      val oldest = held.entrySet().iterator()
      while (bytes > MaxBytes && oldest.hasNext) {
        bytes -= oldest.next().getValue.tail.length
        oldest.remove()
      }
    }
  }
}
