package io.bloomparquet.sql

import io.bloomparquet.testing.LocalSpark
import org.apache.spark.SparkContext
import org.apache.spark.bloomparquet.DriverHeldRdd
import org.apache.spark.sql.catalyst.expressions.{AttributeReference, CreateArray, EqualTo, Explode}
import org.apache.spark.sql.catalyst.plans.Inner
import org.apache.spark.sql.catalyst.plans.logical.{Generate, Join, JoinHint, LocalRelation, Project}
import org.apache.spark.sql.types.LongType

/** Driver-held key sets are measured on the driver's data, without a job; anything else is unknown. */
class KeySetSizeSuite extends munit.FunSuite {
  // The forked JVM's one Spark (a second context would fail); this suite's jobs, if any, in a group of their own.
  private val Group = "KeySetSizeSuite"
  private val sc = FunFixture[SparkContext](
    _ => { val sc = LocalSpark.session.sparkContext; sc.setJobGroup(Group, Group); sc },
    _.clearJobGroup())

  sc.test("parallelized byte batches through one-to-one maps: the batches' lengths, no job") { sc =>
    val batches = Seq.fill(4)(new Array[Byte](100))
    val rdd = sc.parallelize(batches, 2).map(identity).mapPartitions(identity)
    assertEquals(DriverHeldRdd.bytes(rdd, Long.MaxValue), Some(400L))
    assertEquals(sc.statusTracker.getJobIdsForGroup(Group).length, 0)
  }

  sc.test("counting stops once past the limit") { sc =>
    val rdd = sc.parallelize(Seq.fill(10)(new Array[Byte](100)), 10)
    val counted = DriverHeldRdd.bytes(rdd, 150).get
    assert(counted > 150 && counted < 1000, counted)
  }

  sc.test("other parallelized values: Spark's size estimate, at least 8 bytes a row (a Range is tiny as an object)") { sc =>
    assert(DriverHeldRdd.bytes(sc.parallelize(1 to 10000, 2), Long.MaxValue).get >= 80000L)
  }

  sc.test("a shuffle, a union or a source other than parallelize: unknown") { sc =>
    val base = sc.parallelize(Seq(1 -> 1, 2 -> 2))
    assertEquals(DriverHeldRdd.bytes(base.reduceByKey(_ + _), Long.MaxValue), None)
    assertEquals(DriverHeldRdd.bytes(base.union(base), Long.MaxValue), None)
    assertEquals(DriverHeldRdd.bytes(sc.emptyRDD[Int], Long.MaxValue), None)
  }

  test("plans: a local relation and row-preserving operators over it are measured; joins and generators are not") {
    val k = AttributeReference("k", LongType)()
    val local = LocalRelation(Seq(k))
    assertEquals(KeySetSize.driverBytes(Project(Seq(k), local), Long.MaxValue), Some(local.stats.sizeInBytes.toLong))
    val other = LocalRelation(Seq(AttributeReference("j", LongType)()))
    val join = Join(local, other, Inner, Some(EqualTo(k, other.output.head)), JoinHint.NONE)
    assertEquals(KeySetSize.driverBytes(join, Long.MaxValue), None)
    val generate = Generate(Explode(CreateArray(Seq(k, k))), Nil, outer = false, None,
      Seq(AttributeReference("e", LongType)()), local)
    assertEquals(KeySetSize.driverBytes(generate, Long.MaxValue), None)
    assert(KeySetSize.atMost(local, 1L << 20))
  }
}
