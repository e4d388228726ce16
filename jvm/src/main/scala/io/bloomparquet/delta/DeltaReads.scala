package io.bloomparquet.delta

import scala.util.control.NonFatal

import io.bloomparquet.options.OptionRegistry.DeltaEnabled
import org.apache.spark.SPARK_VERSION
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * The session extension's rule for Delta Lake reads (`spark.bloomparquet.delta.enabled`).
 * Delta is optional: its classes are provided, and this jar holds the rule that uses them
 * (package `impl`, from jvm/src/main/scala-delta) only where Delta Lake has a release for the
 * jar's Spark minor. Without that rule, or without Delta's classes at run time, a session with the
 * conf on is refused, saying what is missing; with the conf off nothing of Delta is looked for.
 *
 * The rule is loaded by [[DeltaImplLoader]]: Delta often comes in through `spark.jars.packages`,
 * a class loader below the one holding this jar (`spark.driver.extraClassPath`).
 */
object DeltaReads {

  /** The rule compiled against Delta, where this jar's Spark minor has a Delta Lake release. */
  val Impl = "io.bloomparquet.delta.impl.DeltaBloomPruning"
  private val DeltaIndex = "org.apache.spark.sql.delta.files.TahoeFileIndex"

  def enabled(spark: SparkSession): Boolean = DeltaEnabled.from(spark.conf.getOption)

  /** The extension's rule: nothing of Delta is looked for until a query runs with the conf on. */
  def rule(spark: SparkSession): Rule[LogicalPlan] = OnDemand(spark)

  final case class OnDemand(spark: SparkSession) extends Rule[LogicalPlan] {
    // The context loader of the first query with the conf on: the one that sees Delta's packages.
    @transient private lazy val resolved: Rule[LogicalPlan] = resolve(spark)
    override def apply(plan: LogicalPlan): LogicalPlan = if (!enabled(spark)) plan else resolved(plan)
  }

  private def resolve(spark: SparkSession): Rule[LogicalPlan] = {
    val sessionLoader = Option(Thread.currentThread.getContextClassLoader).getOrElse(getClass.getClassLoader)
    val sparkMinor = SPARK_VERSION.split('.').take(2).mkString(".")
    lazy val deltaLoader = loaderOf(DeltaIndex, sessionLoader)
    if (getClass.getClassLoader.getResource(Impl.replace('.', '/') + ".class") == null)
      Refused(spark,
        s"this bloomparquet jar, built for Spark $sparkMinor, has no Delta Lake reads: Delta Lake " +
          s"publishes no release for Spark $sparkMinor (set ${DeltaEnabled.key}=false)")
    else if (deltaLoader.isEmpty)
      Refused(spark,
        s"Delta Lake is not on the class path: add its package for Spark $sparkMinor " +
          s"(spark.jars.packages, or delta-spark's configure_spark_with_delta_pip), or set ${DeltaEnabled.key}=false")
    else if (!loaderOf(classOf[Rule[_]].getName, deltaLoader.get).contains(classOf[Rule[_]].getClassLoader) ||
      !loaderOf(getClass.getName, deltaLoader.get).contains(getClass.getClassLoader))
      Refused(spark,
        "Delta Lake's class loader sees other Spark or bloomparquet classes than the session " +
          "extension's: put bloomparquet's jar where Spark loads Delta's (spark.jars with it, or both on the class path)")
    else
      try impl(deltaLoader.get).getConstructor(classOf[SparkSession]).newInstance(spark).asInstanceOf[Rule[LogicalPlan]]
      catch {
        case e @ (NonFatal(_) | _: LinkageError) =>
          Refused(spark,
            s"the Delta Lake on the class path is not the release this jar was built for (Spark " +
              s"$sparkMinor): $e")
      }
  }

  /** The loader that defines `name` as seen from `loader`, if it sees one. */
  private def loaderOf(name: String, loader: ClassLoader): Option[ClassLoader] =
    try Some(Class.forName(name, false, loader).getClassLoader)
    catch { case NonFatal(_) | _: LinkageError => None }

  // One definition of the rule per loader that defines Delta (a JVM has one), not one per session or
  // per context loader: Spark Connect makes a session per client session.
  private val impls = new java.util.concurrent.ConcurrentHashMap[ClassLoader, Class[_]]()

  private def impl(deltaLoader: ClassLoader): Class[_] =
    impls.computeIfAbsent(deltaLoader, l => new DeltaImplLoader(l, getClass.getClassLoader).loadClass(Impl))

  /** With the conf on, every query fails, saying why; with it off the rule does nothing. */
  final case class Refused(spark: SparkSession, why: String) extends Rule[LogicalPlan] {
    override def apply(plan: LogicalPlan): LogicalPlan =
      if (enabled(spark)) throw new IllegalStateException(s"${DeltaEnabled.key}=true is refused: $why") else plan
  }
}

/**
 * Defines the classes of package `io.bloomparquet.delta.impl` from this jar (`jar`, the loader
 * holding it) and loads every other class through `session`, the loader that sees Delta: the
 * rule links against Delta's classes from there, and against bloomparquet's own (found through
 * `session`'s parents) exactly as the rest of the extension does.
 */
final class DeltaImplLoader(session: ClassLoader, jar: ClassLoader) extends ClassLoader(session) {
  private val ImplPackage = "io.bloomparquet.delta.impl."

  override def loadClass(name: String, resolve: Boolean): Class[_] =
    if (!name.startsWith(ImplPackage)) super.loadClass(name, resolve)
    else getClassLoadingLock(name).synchronized {
      val loaded: Class[_] = Option(findLoadedClass(name)).getOrElse[Class[_]] {
        val in = jar.getResourceAsStream(name.replace('.', '/') + ".class")
        if (in == null) throw new ClassNotFoundException(name)
        val bytes = try readAll(in)
        finally in.close()
        defineClass(name, bytes, 0, bytes.length)
      }
      if (resolve) resolveClass(loaded)
      loaded
    }

  private def readAll(in: java.io.InputStream): Array[Byte] = {
    val out = new java.io.ByteArrayOutputStream()
    val buffer = new Array[Byte](8192)
    var n = in.read(buffer)
    while (n >= 0) { out.write(buffer, 0, n); n = in.read(buffer) }
    out.toByteArray
  }
}
