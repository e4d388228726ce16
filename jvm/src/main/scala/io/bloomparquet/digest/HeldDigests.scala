package io.bloomparquet.digest

import io.bloomparquet.digest.TableDigest.{Found, Opened, Pointed}

/**
 * The digests this JVM opened lately, by file and length: a digest file is never rewritten (a
 * new one gets a new name), so one held is the file's content. Bounded by the bytes of their
 * tails, the most recently used kept. And what each table's pointer said, for [[PointerMillis]].
 */
object HeldDigests {
  /** How long a table's pointer, as read, is taken to hold (a digest published since is used after this). */
  val PointerMillis: Long = 30000L

  private val pointers = new java.util.concurrent.ConcurrentHashMap[String, (Long, Either[Found, Pointed])]()

  /** What the pointer of table `root` said when read less than [[PointerMillis]] ago. */
  def pointer(root: String): Option[Either[Found, Pointed]] =
    Option(pointers.get(root)).filter(_._1 > System.currentTimeMillis() - PointerMillis).map(_._2)

  def putPointer(root: String, read: Either[Found, Pointed]): Unit = {
    if (pointers.size > 10000) pointers.clear() // tables planned in one JVM: a bound, not a working set
    pointers.put(root, System.currentTimeMillis() -> read)
  }

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
