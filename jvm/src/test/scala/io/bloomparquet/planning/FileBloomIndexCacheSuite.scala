package io.bloomparquet.planning

import java.nio.file.{Files, Path => NioPath}

import scala.jdk.CollectionConverters._

import io.bloomparquet.planning.FiltersAlone.pass
import io.bloomparquet.pruning.{BloomPredicate, ChunkAt}
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound}
import io.bloomparquet.tail.FilterLengths
import io.bloomparquet.testing.SmallParquet
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.MessageTypeParser
import org.apache.spark.sql.types.LongType

/** The cache counts the heap its entries hold, and keeps under its budget whatever is put into it. */
class FileBloomIndexCacheSuite extends munit.FunSuite {
  override val munitTimeout = scala.concurrent.duration.Duration(10, "min") // heap measurements take a while
  private val conf = new Configuration()
  private lazy val dir = Files.createTempDirectory("bp-cache")
  private lazy val file: NioPath = SmallParquet.write(dir, rows = 30000)

  private def keyOf(path: NioPath): FileKey = {
    val f = path.toFile
    FileKey(path.toUri.toString, f.length, f.lastModified)
  }

  /** A fresh index of `file` with every chunk's filter read, as a query probing every row group leaves it. */
  private def fullIndex(path: NioPath = file): FileBloomIndex = {
    val input = HadoopInputFile.fromPath(new Path(path.toUri), conf)
    val index = new FileBloomIndex(footerOf(path), FilterLengths.Empty)
    val in = input.newStream()
    try index.footer.getBlocks.asScala.zipWithIndex.foreach { case (block, rg) =>
        block.getColumns.asScala.zipWithIndex.foreach { case (chunk, c) =>
          BloomFilterReader.read(in, input.getLength, chunk) match {
            case read @ FilterFound.Loaded(f, _) => index.addFilter(ChunkAt(rg, c), read); index.fillFpp(ChunkAt(rg, c), f)
            case other => index.addFilter(ChunkAt(rg, c), other)
          }
        }
      }
    finally in.close()
    index
  }

  /** What the cache counted before it weighed the heap: 1 KiB + 400 bytes a chunk + each bitset and 64 bytes. */
  private def formerWeight(index: FileBloomIndex): Long = {
    val blocks = index.footer.getBlocks.asScala
    var bytes = 1024L + blocks.map(_.getColumns.size).sum * 400L
    for (rg <- blocks.indices; c <- 0 until blocks(rg).getColumns.size) index.filter(ChunkAt(rg, c)) match {
      case Some(FilterFound.Loaded(f, _)) => bytes += f.numBytes + 64L
      case Some(_) => bytes += 64L
      case None =>
    }
    bytes
  }

  /** Heap in use once collections stop freeing anything. */
  private def usedHeap(): Long = {
    val rt = Runtime.getRuntime
    def used() = { System.gc(); Thread.sleep(50); rt.totalMemory - rt.freeMemory }
    var last = used()
    var now = used()
    var rounds = 0
    while (now < last - (last >> 8) && rounds < 10) { last = now; now = used(); rounds += 1 }
    now
  }

  /**
   * Heap bytes per object of each of `makers`, from the heap's growth while `n`
   * of them are made and held (all held until every one is measured); the
   * median of three rounds, since other allocation in the JVM blurs each.
   */
  private def measured(n: Int, makers: Seq[() => AnyRef]): Seq[Double] = {
    makers.foreach(_()) // classes loaded, parquet-java's canonical paths interned
    val rounds = (1 to 3).map { _ =>
      var before = usedHeap()
      val held = makers.map { make =>
        val objects = Array.fill(n)(make())
        val after = usedHeap()
        val grown = after - before
        before = after
        (objects, grown.toDouble / n)
      }
      assert(held.forall(_._1.length == n))
      held.map(_._2)
    }
    println(s"heap delta per object, by round: ${rounds.map(_.map(b => f"$b%.0f").mkString("/")).mkString(", ")}")
    makers.indices.map(i => rounds.map(_(i)).sorted.apply(1))
  }

  /** A file's footer as planning parses it (through the suite's one configuration). */
  private def footerOf(path: NioPath) = {
    val reader = org.apache.parquet.hadoop.ParquetFileReader.open(HadoopInputFile.fromPath(new Path(path.toUri), conf))
    try reader.getFooter
    finally reader.close()
  }

  /** A wider file: 8 int64 and 8 string columns, filters on all, Spark-like schema JSON in the key-values. */
  private lazy val wide: NioPath = {
    val cols = (0 until 8).flatMap(i => Seq(s"required int64 i$i;", s"required binary s$i (UTF8);"))
    val schema = MessageTypeParser.parseMessageType(cols.mkString("message m { ", " ", " }"))
    val path = Files.createDirectories(dir.resolve("wide")).resolve("wide.parquet")
    Files.deleteIfExists(path)
    val json = (0 until 8).map(i =>
      s"""{"name":"i$i","type":"long","nullable":false,"metadata":{}},""" +
        s"""{"name":"s$i","type":"string","nullable":false,"metadata":{}}""").mkString("""{"type":"struct","fields":[""", ",", "]}")
    val builder = (0 until 8).foldLeft(ExampleParquetWriter.builder(new Path(path.toUri)).withType(schema)
        .withRowGroupSize(16L * 1024).withPageSize(4096)
        .withExtraMetaData(Map("org.apache.spark.sql.parquet.row.metadata" -> json).asJava)) { (b, i) =>
      b.withBloomFilterEnabled(s"i$i", true).withBloomFilterNDV(s"i$i", 500L)
        .withBloomFilterEnabled(s"s$i", true).withBloomFilterNDV(s"s$i", 500L)
    }
    val writer = builder.build()
    val g = new SimpleGroupFactory(schema)
    try for (r <- 0 until 6000) {
        val row = g.newGroup()
        for (i <- 0 until 8) row.append(s"i$i", r * 31L + i).append(s"s$i", f"value-$i-${r * 7919 % 100000}%08d")
        writer.write(row)
      }
    finally writer.close()
    path
  }

  test("an entry's weight is the heap it holds (heap delta of many entries), within 10 %") {
    val results = for ((name, path) <- Seq("small" -> file, "wide" -> wide)) yield {
      val key = keyOf(path)
      val n = 100
      val both = measured(n, Seq(() => new FileBloomIndex(footerOf(path), FilterLengths.Empty), () => fullIndex(path)))
      val (footerOnly, full) = (both.head, both(1))
      val one = fullIndex(path)
      val bare = new FileBloomIndex(one.footer, FilterLengths.Empty)
      val footerWeighed = key.heapBytes + bare.heapBytes
      val weighed = key.heapBytes + one.heapBytes
      val chunks = one.footer.getBlocks.asScala.map(_.getColumns.size).sum
      def pct(a: Long, b: Double) = f"${100.0 * a / b}%.1f %%"
      println(f"$name file, $chunks chunks: footer only: measured $footerOnly%.0f B, weighed $footerWeighed B " +
        s"(${pct(footerWeighed, footerOnly)}), former ${formerWeight(bare)} B (${pct(formerWeight(bare), footerOnly)}); " +
        f"every filter read: measured $full%.0f B, weighed $weighed B (${pct(weighed, full)}), " +
        s"former ${formerWeight(one)} B (${pct(formerWeight(one), full)})")
      (name, weighed, full, footerWeighed, footerOnly)
    }
    for ((name, weighed, full, footerWeighed, footerOnly) <- results) {
      assert(math.abs(weighed - full) <= 0.10 * full, s"$name: weighed $weighed, measured $full")
      assert(math.abs(footerWeighed - footerOnly) <= 0.10 * footerOnly,
        s"$name footer: weighed $footerWeighed, measured $footerOnly")
    }
  }

  test("filled past its budget, the cache keeps under it and answers only from entries it holds") {
    val budgetBefore = FileBloomIndexCache.budget
    FileBloomIndexCache.clear()
    try {
      val one = keyOf(file).heapBytes + fullIndex().heapBytes
      val budget = 5 * one + one / 2
      FileBloomIndexCache.setBudget(budget)
      val put = (0 until 40).map { i =>
        val key = keyOf(file).copy(path = s"${file.toUri}#$i")
        val index = fullIndex()
        FileBloomIndexCache.put(key, index)
        val (files, bytes) = FileBloomIndexCache.held
        assert(bytes <= budget, s"after put $i: $bytes held over $budget")
        assert(files <= 5, s"after put $i: $files files")
        key -> index
      }
      val answered = put.filter { case (key, index) =>
        FileBloomIndexCache.get(key) match {
          case Some(got) => assert(got eq index, s"$key answered by another entry"); true
          case None => false
        }
      }
      assert(answered.nonEmpty && answered.size <= 5, s"${answered.size} held")
      assertEquals(FileBloomIndexCache.held._1, answered.size)
    } finally {
      FileBloomIndexCache.clear()
      FileBloomIndexCache.setBudget(budgetBefore)
    }
  }

  test("pruning through a cache too small for the files decides as without the cache, cached answers only when held") {
    val budgetBefore = FileBloomIndexCache.budget
    FileBloomIndexCache.clear()
    try {
      val paths = (0 until 8).map(i => SmallParquet.write(Files.createDirectories(dir.resolve(s"f$i")), rows = 3000 + 500 * i))
      val files = paths.map(keyOf)
      // Room for about three of the eight files, whichever they are.
      val budget = 3 * paths.map(p => keyOf(p).heapBytes + fullIndex(p).heapBytes).max
      val predicate = BloomPredicate.in(Seq("key"), LongType, Seq(1L, 2000L, 4001L, 5000L))
      def verdicts(key: FileKey, useCache: Boolean, cachedOnly: Boolean = false) = {
        val filters = pass(predicate, useCache)
        (if (cachedOnly) FilePruner.cached(key, conf, filters) else Some(FilePruner.prune(key, conf, filters, listed = None)))
          .map { o => assertEquals(o.failure, None); o.verdicts }
      }
      val uncached = files.map(k => verdicts(k, useCache = false).get)
      assert(uncached.exists(_.exists(_ != uncached.head.head)), "the predicate prunes some row group")
      FileBloomIndexCache.setBudget(budget)
      for (round <- 1 to 3; (key, expected) <- files.zip(uncached)) {
        assertEquals(verdicts(key, useCache = true).get, expected, s"round $round, $key")
        assert(FileBloomIndexCache.held._2 <= budget)
      }
      // The cache keys on the version the file system offers (local files: inode and ctime).
      val held = files.filter(k => FileBloomIndexCache.get(Versioned(k, new Path(k.path), conf, cacheWanted = true).key).isDefined)
      assert(held.nonEmpty && held.size < files.size, s"${held.size} of ${files.size} held")
      for ((key, expected) <- files.zip(uncached))
        assertEquals(verdicts(key, useCache = true, cachedOnly = true), if (held.contains(key)) Some(expected) else None)
    } finally {
      FileBloomIndexCache.clear()
      FileBloomIndexCache.setBudget(budgetBefore)
    }
  }
}
