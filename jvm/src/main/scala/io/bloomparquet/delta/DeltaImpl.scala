package io.bloomparquet.delta

import scala.util.control.NonFatal

import org.apache.spark.SPARK_VERSION
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * Loads the classes compiled against Delta Lake (package `impl`, from jvm/src/main/scala-delta),
 * which this jar holds only where Delta Lake has a release for the jar's Spark minor, or says why
 * it cannot. Delta often comes in through `spark.jars.packages`, a class loader below the one
 * holding this jar (`spark.driver.extraClassPath`), so they are defined by a [[DeltaImplLoader]]
 * below Delta's.
 */
object DeltaImpl {
  private val DeltaIndex = "org.apache.spark.sql.delta.files.TahoeFileIndex"

  /**
   * A new instance of `className` (constructed with the session), or why there is none;
   * `optOut` ends each reason (what the user can do instead).
   */
  def load[T](spark: SparkSession, className: String, optOut: String): Either[String, T] = {
    val sessionLoader = Option(Thread.currentThread.getContextClassLoader).getOrElse(getClass.getClassLoader)
    val sparkMinor = SPARK_VERSION.split('.').take(2).mkString(".")
    lazy val deltaLoader = loaderOf(DeltaIndex, sessionLoader)
    if (getClass.getClassLoader.getResource(className.replace('.', '/') + ".class") == null)
      Left(s"this bloomparquet jar, built for Spark $sparkMinor, has no Delta Lake support: Delta Lake " +
        s"publishes no release for Spark $sparkMinor ($optOut)")
    else if (deltaLoader.isEmpty)
      Left(s"Delta Lake is not on the class path: add its package for Spark $sparkMinor " +
        s"(spark.jars.packages, or delta-spark's configure_spark_with_delta_pip), or $optOut")
    else if (!loaderOf(classOf[Rule[_]].getName, deltaLoader.get).contains(classOf[Rule[_]].getClassLoader) ||
      !loaderOf(getClass.getName, deltaLoader.get).contains(getClass.getClassLoader))
      Left("Delta Lake's class loader sees other Spark or bloomparquet classes than the session " +
        "extension's: put bloomparquet's jar where Spark loads Delta's (spark.jars with it, or both on the class path)")
    else
      try Right(implLoader(deltaLoader.get).loadClass(className).getConstructor(classOf[SparkSession])
            .newInstance(spark).asInstanceOf[T])
      catch {
        case e @ (NonFatal(_) | _: LinkageError) =>
          Left(s"the Delta Lake on the class path is not the release this jar was built for (Spark $sparkMinor): $e")
      }
  }

  /** The loader that defines `name` as seen from `loader`, if it sees one. */
  private def loaderOf(name: String, loader: ClassLoader): Option[ClassLoader] =
    try Some(Class.forName(name, false, loader).getClassLoader)
    catch { case NonFatal(_) | _: LinkageError => None }

  // One definition of the impl classes per loader that defines Delta (a JVM has one), not one per
  // session or per context loader: Spark Connect makes a session per client session.
  private val loaders = new java.util.concurrent.ConcurrentHashMap[ClassLoader, DeltaImplLoader]()

  private def implLoader(deltaLoader: ClassLoader): DeltaImplLoader =
    loaders.computeIfAbsent(deltaLoader, l => new DeltaImplLoader(l, getClass.getClassLoader))
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
