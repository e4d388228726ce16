package io.bloomparquet.planning

import java.nio.file.{Files, Path => NioPath}

import scala.jdk.CollectionConverters._
import scala.util.{Random, Using}

import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.compat.VectoredReads
import io.bloomparquet.options.{FilterReads, ReadCostSettings}
import io.bloomparquet.planning.FiltersAlone.pass
import io.bloomparquet.pruning.{BloomPredicate, ChunkAt}
import io.bloomparquet.sbbf.{BloomFilterReader, FilterBlocks, FilterFound, SplitBlockBloomFilter}
import io.bloomparquet.tail.{FilterLengths, FilterTail}
import io.bloomparquet.testing.{SlowFileSystem, SmallParquet}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.simple.SimpleGroupFactory
import org.apache.parquet.hadoop.example.ExampleParquetWriter
import org.apache.parquet.io.LocalInputFile
import org.apache.spark.sql.types.LongType

/**
 * Reading only the blocks probed values hash to ([[BloomFilterReader.readBlocks]], `bloom.filterReads`):
 * the blocks answer as the whole filter does, an unread block never prunes, and pruning decides the same
 * whole, in blocks and as the cost model chooses, cached or not, with far fewer bytes read.
 */
class FilterBlockReadsSuite extends munit.FunSuite {
  private val conf = new Configuration()
  private lazy val dir = Files.createTempDirectory("bp-blocks")

  // Its files are tens of megabytes (parquet-java's filters sized for 500,000 values).
  override def afterAll(): Unit =
    if (Files.exists(dir)) Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.delete(p))

  /** parquet-java's layout: a filter sized for 500,000 values per row group (~600 KiB), keys 2r as in SmallParquet. */
  private def largeFilters(rows: Int, name: String = "large"): NioPath = {
    val path = dir.resolve(s"$name-$rows.parquet")
    Files.deleteIfExists(path)
    val writer = ExampleParquetWriter.builder(new Path(path.toUri)).withType(SmallParquet.Schema)
      .withRowGroupSize(16L * 1024).withPageSize(1024)
      .withBloomFilterEnabled("key", true).withBloomFilterNDV("key", 500000L).build()
    val g = new SimpleGroupFactory(SmallParquet.Schema)
    try for (r <- 0 until rows) writer.write(g.newGroup().append("key", 2L * r).append("name", s"n${r % 7}"))
    finally writer.close()
    path
  }

  /** `path` on the latency-injecting file system (no latency set: it counts reads), and a conf that mounts it. */
  private def slow(path: NioPath): (String, Configuration) = {
    val slowConf = new Configuration()
    SlowFileSystem.settings().forEach((k, v) => slowConf.set(k, v))
    (s"${SlowFileSystem.Scheme}://${path.toUri.getPath}", slowConf)
  }

  private def keyOf(path: NioPath): FileKey = FileKey(path.toUri.toString, path.toFile.length, path.toFile.lastModified)

  test("blocks answer as the whole filter for the hashes they hold, and 'may be' for any other") {
    val rnd = new Random(7)
    val whole = SplitBlockBloomFilter(64 * 1024)
    (0 until 20000).foreach(_ => whole.insertHash(rnd.nextLong()))
    val prefix = Array.fill[Byte](100)(3)
    val bytes = FilterTail.serialize(whole)
    val file = Files.write(dir.resolve("filter.bin"), prefix ++ bytes ++ Array[Byte](9, 9))
    val probes = Array.fill(200)(rnd.nextLong())
    val layout = BloomFilterReader.blockLayout(bytes.length)
    assertEquals(layout.map(_._2), Some(whole.numBlocks))
    val blocks = probes.take(100).map(h => ((h >>> 32) * whole.numBlocks >>> 32).toInt).distinct.sorted.toIndexedSeq
    val input = new LocalInputFile(file)
    Using.resource(input.newStream()) { in =>
      BloomFilterReader.readBlocks(in, input.getLength,
        IndexedSeq(BloomFilterReader.BlockRequest(100L, bytes.length, blocks)), gapBytes = 0, SbbfKernels.get()).found match {
        case IndexedSeq(FilterFound.Blocks(got, read)) =>
          assertEquals(got.blockCount, blocks.size)
          assert(read < bytes.length / 10, s"read $read of ${bytes.length}")
          probes.take(100).foreach(h => assertEquals(got.mightContain(h), whole.mightContain(h)))
          probes.drop(100).filter(h => got.missing(Seq(h)).nonEmpty).foreach(h => assert(got.mightContain(h)))
          assert(probes.take(100).exists(h => !got.mightContain(h)), "some probe is excluded")
        case other => fail(s"got $other")
      }
      // A length the layout guesses wrong (the header is not `length` mod 32 bytes): read whole.
      BloomFilterReader.readBlocks(in, input.getLength,
        IndexedSeq(BloomFilterReader.BlockRequest(100L, bytes.length + 2, blocks)), gapBytes = 0, SbbfKernels.get()) match {
        case BloomFilterReader.BlockReads(IndexedSeq(FilterFound.Loaded(f, n)), readWhole) =>
          assertEquals(f, whole)
          assertEquals(readWhole.keySet, Set(0)) // the whole read is reported apart, for the metrics
          assert(readWhole(0) >= bytes.length && n > readWhole(0), (n, readWhole))
        case other => fail(s"got $other")
      }
    }
  }

  test("pruning decides the same whole, in blocks and by the cost model, with and without the cache") {
    val files = Seq(largeFilters(6000), largeFilters(9000, "other")).map(keyOf)
    val rnd = new Random(11)
    val budgetBefore = FileBloomIndexCache.budget
    var probed = 0
    try for (round <- 0 until 12) {
        // Present keys are even and inside every row group's min/max; odd ones are absent.
        val values = Seq.fill(1 + rnd.nextInt(if (round % 3 == 0) 60 else 4))(rnd.nextInt(12000).toLong)
        val predicate = BloomPredicate.in(Seq("key"), LongType, values)
        for (key <- files) {
          def run(reads: FilterReads, useCache: Boolean) = {
            val o = FilePruner.prune(key, conf, pass(predicate, useCache, reads), listed = None)
            assertEquals(o.failure, None)
            o
          }
          val whole = run(FilterReads.Whole, useCache = false)
          val blocks = run(FilterReads.Blocks, useCache = false)
          assertEquals(blocks.verdicts, whole.verdicts, s"round $round, $values")
          assertEquals(whole.reads.filtersReadInBlocks, 0)
          if (whole.reads.filterBytesRead > 0) { // statistics left some filter to probe
            probed += 1
            assert(blocks.reads.filtersReadInBlocks > 0, blocks)
            if (values.size < 5) assert(blocks.reads.filterBytesRead * 4 < whole.reads.filterBytesRead, (blocks, whole))
          }
          assertEquals(run(FilterReads.Auto, useCache = false).verdicts, whole.verdicts)
          // Cached blocks of earlier rounds, more read only where this round's values need them.
          FileBloomIndexCache.setBudget(64L << 20)
          assertEquals(run(FilterReads.Blocks, useCache = true).verdicts, whole.verdicts)
          val again = run(FilterReads.Blocks, useCache = true)
          assertEquals(again.verdicts, whole.verdicts)
          assertEquals((again.reads.filterBytesRead, again.reads.footersRead), (0L, 0), "a repeat reads nothing")
        }
      }
    finally {
      FileBloomIndexCache.clear()
      FileBloomIndexCache.setBudget(budgetBefore)
    }
    assert(probed >= 12, s"only $probed file queries probed a filter")
  }

  test("on a local disk a point lookup reads within 1.5x the minimum: the footer, the probed filter's header and block") {
    val path = largeFilters(6000, "minimum")
    val key = keyOf(path)
    val bytes = Files.readAllBytes(path)
    val footerBytes = bytes.length - SmallParquet.footerStart(bytes)
    val chunk = SmallParquet.footer(path).getBlocks.get(0).getColumns.get(0)
    val header = BloomFilterReader.blockLayout(io.bloomparquet.compat.ParquetFilterShims.bloomFilterLength(chunk).get).get._1
    val sizer = TailSizer.forCost(ReadCost.forPath(key.path))
    val lookup = pass(BloomPredicate.in(Seq("key"), LongType, Seq(5001L)), useCache = false, tailSizer = sizer)
    val first = FilePruner.prune(key, conf, lookup, listed = None)
    val again = FilePruner.prune(key, conf, lookup, listed = None)
    assertEquals(again.verdicts, first.verdicts)
    // Statistics leave one row group (keys ascend): its filter's header, the probed block, and the
    // blocks of the chunk's min and max (the check for a corrupt bitset), each read exactly.
    assertEquals((again.reads.filtersReadInBlocks, again.reads.footersRead), (1, 1))
    val minimum = footerBytes + header + 32
    assert(again.reads.planningBytesRead <= minimum * 3 / 2, s"${again.reads.planningBytesRead} against a minimum of $minimum")
    assert(again.reads.planningBytesRead >= minimum, again)
    // The first file read 1 KiB of its end, then the footer it found longer.
    assert(first.reads.planningBytesRead - again.reads.planningBytesRead <= 1024, (first, again))
  }

  test("where requests go unnoticed, the fewest bytes within a file's open of the fastest way; elsewhere the fastest") {
    val local = ReadCost.forScheme(Some("file"))
    val hdfs = ReadCost.forScheme(Some("hdfs"))
    assert(local.requestsUnnoticed && !hdfs.requestsUnnoticed)
    assertEquals((local.tolerance, hdfs.tolerance), (ReadCost.LocalOpenSeconds, 0.0))
    val ways = Seq(("merged", 10e-6, 20000L), ("exact", 34e-6, 200L), ("slow", 60e-6, 100L))
    assertEquals(local.cheapest(ways)(_._2, _._3)._1, "exact")
    assertEquals(hdfs.cheapest(ways)(_._2, _._3)._1, "merged")
    assertEquals(hdfs.cheapest(Seq(("a", 1.0, 5L), ("b", 1.0, 3L)))(_._2, _._3)._1, "b") // a tie: fewer bytes
  }

  test("a zeroed filter read in blocks is found broken by its chunk's own min and max, as when read whole") {
    val path = largeFilters(3000, "zeroed")
    val footer = SmallParquet.footer(path)
    val chunk = footer.getBlocks.get(0).getColumns.get(0)
    val length = io.bloomparquet.compat.ParquetFilterShims.bloomFilterLength(chunk).get
    val header = BloomFilterReader.blockLayout(length).get._1
    val zeroed = SmallParquet.damaged(path, "zeroed-copy.parquet") { bytes =>
      java.util.Arrays.fill(bytes, (chunk.getBloomFilterOffset + header).toInt, (chunk.getBloomFilterOffset + length).toInt,
        0.toByte)
      bytes
    }
    val predicate = BloomPredicate.in(Seq("key"), LongType, Seq(2L))
    for (reads <- Seq(FilterReads.Whole, FilterReads.Blocks)) {
      val o = FilePruner.prune(keyOf(zeroed), conf, pass(predicate, useCache = false, reads), listed = None)
      assertEquals(o.brokenFilters, 1, reads)
      assert(o.keep(0), s"$reads: row group 0 holds key 2")
    }
  }

  test("a filter whose header does not confirm its layout is read whole, and that read counts in the metrics") {
    val path = largeFilters(3000, "reheaded")
    val chunk = SmallParquet.footer(path).getBlocks.get(0).getColumns.get(0)
    val length = io.bloomparquet.compat.ParquetFilterShims.bloomFilterLength(chunk).get
    val offset = chunk.getBloomFilterOffset.toInt
    // The header's first field is num_bytes (compact thrift: 0x15, then a zigzag varint): bit 1 of its
    // first varint byte changes it by one, the header's size stays, and the layout no longer fits.
    val damaged = SmallParquet.damaged(path, "reheaded-copy.parquet") { bytes =>
      assertEquals(bytes(offset), 0x15.toByte)
      bytes(offset + 1) = (bytes(offset + 1) ^ 2).toByte
      bytes
    }
    val predicate = BloomPredicate.in(Seq("key"), LongType, Seq(2L))
    def pruned(reads: FilterReads) = FilePruner.prune(keyOf(damaged), conf, pass(predicate, useCache = false, reads), listed = None)
    val (asWhole, inBlocks) = (pruned(FilterReads.Whole), pruned(FilterReads.Blocks))
    assertEquals(inBlocks.verdicts, asWhole.verdicts)
    assert(inBlocks.keep(0), "row group 0 holds key 2")
    assertEquals(inBlocks.reads.filtersReadInBlocks, 0)
    // The header and blocks first, then the whole filter: at least the whole read's bytes and two reads.
    assert(inBlocks.reads.planningBytesRead - asWhole.reads.planningBytesRead > 0, (inBlocks, asWhole))
    assert(inBlocks.reads.planningBytesRead >= length && inBlocks.reads.filterReads >= asWhole.reads.filterReads + 1, (inBlocks, asWhole))
  }

  test("blocks never replace a whole answer another query stored: a filter found broken stays broken") {
    val path = largeFilters(3000, "held")
    val index = new FileBloomIndex(SmallParquet.footer(path), FilterLengths.Empty)
    val one = SplitBlockBloomFilter(64)
    val blocks = FilterFound.Blocks(FilterBlocks.fromBytes(2, IndexedSeq(1), new Array[Byte](32), IndexedSeq(0),
        SbbfKernels.get()), 32)
    index.addFilter(ChunkAt(0, 0), FilterFound.Broken("excludes its own min", 0))
    index.addFilter(ChunkAt(0, 0), blocks)
    assert(index.filter(ChunkAt(0, 0)).exists(_.isInstanceOf[FilterFound.Broken]), index.filter(ChunkAt(0, 0)))
    index.addFilter(ChunkAt(0, 1), FilterFound.Loaded(one, 64))
    index.addFilter(ChunkAt(0, 1), blocks)
    assertEquals(index.filter(ChunkAt(0, 1)), Some(FilterFound.Loaded(one, 64)))
    index.addFilter(ChunkAt(0, 2), blocks)
    index.addFilter(ChunkAt(0, 2), FilterFound.Loaded(one, 64)) // a whole read replaces blocks
    assertEquals(index.filter(ChunkAt(0, 2)), Some(FilterFound.Loaded(one, 64)))
  }

  test("the cost model reads blocks of large filters and whole small ones on a local disk, whole ones on a store") {
    val local = ReadCost.forScheme(Some("file"))
    val store = ReadCost.forScheme(Some("s3a"))
    // One probe of a 1 MiB filter: its header and a block at ~500 KiB, two reads, against one read of 1 MiB.
    def blocks(c: ReadCost) = c.seconds(2, 64)
    def whole(c: ReadCost, bytes: Long) = c.seconds(1, bytes)
    assert(blocks(local) < whole(local, 1L << 20))
    assert(blocks(local) > whole(local, 1L << 10))
    val oneByOne = store.oneAfterAnother
    assert(blocks(oneByOne) > whole(oneByOne, 1L << 20), "20 ms a request: a second request costs 2 MB of transfer")
    assert(blocks(oneByOne) < whole(oneByOne, 4L << 20))
    assertEquals(local.gapBytes, 16000L)
    assert(!local.vectored)
    if (VectoredReads.supported) { // S3A fetches a vectored read's ranges 4 at a time: the blocks' read costs one round
      assert(store.vectored && blocks(store) < whole(store, 1L << 20))
      assertEquals(store.gapBytes, ReadCost.VectoredMergeBytes)
    }
    val set = ReadCost.forPath("s3a://b/f", ReadCostSettings(latencyMicros = 1000, megabytesPerSecond = 50, parallelRanges = 1))
    assertEquals(set, ReadCost(1e-3, 50e6, 1))
    assertEquals(ReadCost.forPath("file:/f", ReadCostSettings()), local)
  }

  test("files planned at once: the setting, or 64 on object stores (planning waits on requests) and 16 elsewhere") {
    assertEquals(PlanningPool.parallelism(0, Some("s3a://b/t/f.parquet")), PlanningPool.ObjectStoreParallelism)
    assertEquals(PlanningPool.parallelism(0, Some("abfss://c@a.dfs.core.windows.net/f")), 64)
    assertEquals(PlanningPool.parallelism(0, Some("file:/t/f.parquet")), 16)
    assertEquals(PlanningPool.parallelism(0, Some("hdfs://nn/t/f")), 16)
    assertEquals(PlanningPool.parallelism(0, None), 16)
    assertEquals(PlanningPool.parallelism(0, Some("S3A://b/t/f.parquet")), 64) // schemes without case
    assertEquals(PlanningPool.parallelism(3, Some("s3a://b/t/f.parquet")), 3)
  }

  test("work by position on the pool: every result in its place, whatever the threads and the order they finish in") {
    Seq(0, 1, 2, 16).foreach { threads =>
      val got = PlanningPool.inParallel(1000, threads) { i =>
        if (i % 97 == 0) Thread.sleep(1) // a slow one, finishing after later ones
        i * 3L
      }
      assertEquals(got, (0 until 1000).map(_ * 3L), s"$threads threads")
    }
    // A failure reaches the caller, from whichever thread met it.
    val failed = intercept[Exception](
      PlanningPool.inParallel(100, 4)(i => if (i == 98) throw new IllegalStateException("file 98") else i))
    assert(Iterator.iterate[Throwable](failed)(_.getCause).takeWhile(_ != null).exists(_.getMessage == "file 98"), failed)
  }

  test("a path's scheme, read without parsing the path, is the one Hadoop's Path reads") {
    val paths = Seq("s3a://b/t/f.parquet", "S3A://b/t/f.parquet", "file:/t/f.parquet", "file:///t/f.parquet",
      "/t/f.parquet", "t/f.parquet", "hdfs://nn:8020/t/f", "abfss://c@a.dfs.core.windows.net/f", "slow:///t/x",
      "/t/a:b.parquet", "dir/a:b", "C:/t/f", "viewfs://cluster/t")
    paths.foreach { p =>
      val hadoops = Option(new Path(p).toUri.getScheme).map(_.toLowerCase(java.util.Locale.ROOT))
      assertEquals(ReadCost.scheme(p), hadoops, p)
    }
  }

  test("files read at once share the driver's bandwidth: at scale, one after another, whole filters lose") {
    val one = ReadCost.forPath("s3a://b/f", ReadCostSettings(parallelRanges = 1))
    assertEquals(one.bytesPerSecond, 100e6) // a stream's own: 16 files at 62.5 MB/s, 10 at 100 MB/s exactly fill 1 GB/s
    val ten = ReadCost.forPath("s3a://b/f", ReadCostSettings(parallelRanges = 1, filesAtOnce = 10))
    assertEquals(ten.bytesPerSecond, 100e6)
    val many = ReadCost.forPath("s3a://b/f", ReadCostSettings(parallelRanges = 1, filesAtOnce = 64))
    assertEquals(many.bytesPerSecond, 1000e6 / 64)
    def blocks(c: ReadCost) = c.seconds(2, 64)
    def whole(c: ReadCost) = c.seconds(1, 1L << 20)
    assert(blocks(one) > whole(one), "alone, a second request costs more than 1 MiB of transfer")
    assert(blocks(many) < whole(many), "64 files at once: 1 MiB at 15.6 MB/s costs more than a request")
    // Local files (the page cache) have no shared limit; a setting gives one anywhere.
    assertEquals(ReadCost.forPath("file:/f", ReadCostSettings(filesAtOnce = 64)).bytesPerSecond, 8000e6)
    assertEquals(ReadCost.forPath("file:/f", ReadCostSettings(filesAtOnce = 4, driverMegabytesPerSecond = 400)).bytesPerSecond, 100e6)
  }

  test("the same ranges read in one vectored read or one by one give the same blocks and bytes") {
    assume(VectoredReads.supported, "no vectored reads in this Spark's parquet-java")
    val path = largeFilters(6000, "ranges")
    val footer = SmallParquet.footer(path)
    val rnd = new Random(3)
    val requests = footer.getBlocks.asScala.toIndexedSeq.map(_.getColumns.get(0)).map { chunk =>
      val length = io.bloomparquet.compat.ParquetFilterShims.bloomFilterLength(chunk).get
      val numBlocks = BloomFilterReader.blockLayout(length).get._2
      BloomFilterReader.BlockRequest(chunk.getBloomFilterOffset, length, IndexedSeq.fill(6)(rnd.nextInt(numBlocks)))
    }
    val (slowPath, slowConf) = slow(path)
    val input = org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new Path(slowPath), slowConf)
    def read(vectored: Boolean) = {
      SlowFileSystem.reset() // before the open: a stream counts into its file's counts of then
      Using.resource(input.newStream())(in => readCounted(in, vectored))
    }
    def readCounted(in: org.apache.parquet.io.SeekableInputStream, vectored: Boolean) = {
      val found = BloomFilterReader.readBlocks(in, input.getLength, requests, gapBytes = 4096, SbbfKernels.get(), vectored).found
      assertEquals(SlowFileSystem.vectoredReadsOf(slowPath), if (vectored) 1L else 0L)
      found
    }
    val (oneByOne, together) = (read(vectored = false), read(vectored = true))
    assert(requests.size > 1 && oneByOne.forall(_.isInstanceOf[FilterFound.Blocks]), oneByOne)
    assertEquals(together.map(_.bytesRead), oneByOne.map(_.bytesRead))
    val hashes = Seq.fill(2000)(rnd.nextLong())
    together.zip(oneByOne).foreach {
      case (FilterFound.Blocks(a, _), FilterFound.Blocks(b, _)) =>
        assertEquals(a.blockCount, b.blockCount)
        hashes.foreach(h => assertEquals(a.mightContain(h), b.mightContain(h)))
      case other => fail(s"got $other")
    }
  }

  test("a file's blocks in one vectored read: the same answers as read one by one") {
    assume(VectoredReads.supported, "no vectored reads in this Spark's parquet-java")
    val path = largeFilters(9000, "vectored")
    val (slowPath, slowConf) = slow(path)
    val key = FileKey(slowPath, path.toFile.length, path.toFile.lastModified)
    val values = (0 until 40).map(i => 2L * i * 211 + 1) // absent: a block per row group's filter each
    val predicate = BloomPredicate.in(Seq("key"), LongType, values)
    def run(parallel: Int) = {
      SlowFileSystem.reset()
      val costs = ReadCostSettings(latencyMicros = 20, megabytesPerSecond = 2000, parallelRanges = parallel)
      val o = FilePruner.prune(key, slowConf, pass(predicate, useCache = false, FilterReads.Blocks, costs), listed = None)
      (o, SlowFileSystem.vectoredReadsOf(slowPath))
    }
    val (oneByOne, none) = run(1)
    val (together, vectored) = run(4)
    assertEquals(none, 0L)
    assertEquals(vectored, 1L, "the file's block ranges in one vectored read")
    assertEquals(together.failure, None)
    assertEquals(together.verdicts, oneByOne.verdicts)
    // Gaps of a vectored read are not read to save a request (its ranges share rounds): fewer bytes.
    assert(together.reads.filterBytesRead <= oneByOne.reads.filterBytesRead, (together, oneByOne))
    assert(
      together.reads.filtersReadInBlocks > 1 && together.verdicts.contains(io.bloomparquet.pruning.RowGroupVerdict.PrunedByBloomFilter),
      together)
  }
}
