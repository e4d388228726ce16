package io.bloomparquet.integration

import java.util.ServiceLoader

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.spark.SPARK_VERSION

/**
 * Finds a table format's integration: the classes compiled against that format's library (an sbt
 * project of their own), packaged in this jar for the Spark minors the format has a release for and
 * registered as the service of an interface the core defines for the format. Ordinary class loading:
 * the loader holding this jar loads them, so the format's library must be visible from it, as it is
 * when both come the same way (`spark.jars`, `--packages`, or the class path).
 */
object FormatIntegration {

  /**
   * The one implementation of `api` in this jar, or why there is none.
   *
   * @param format     the table format's name, as users know it ("Delta Lake")
   * @param probeClass a class of the format's library, to tell whether the library is visible
   * @param howToAdd   how a user adds the library for this Spark
   * @param optOut     what the user can do instead; ends every reason
   */
  def load[T](api: Class[T], format: String, probeClass: String, howToAdd: String, optOut: String): Either[String, T] = {
    val ours = api.getClassLoader
    val minor = SPARK_VERSION.split('.').take(2).mkString(".")
    def sees(loader: ClassLoader): Boolean = loader != null &&
      (try { Class.forName(probeClass, false, loader); true }
      catch { case NonFatal(_) | _: LinkageError => false })
    if (ours.getResource("META-INF/services/" + api.getName) == null)
      Left(s"this bloomparquet jar, built for Spark $minor, has no $format support: $format publishes no release " +
        s"for Spark $minor ($optOut)")
    else if (!sees(ours) && sees(Thread.currentThread.getContextClassLoader))
      Left(s"bloomparquet's jar is loaded where it cannot see $format's classes (on the class path or " +
        s"spark.driver.extraClassPath, $format through spark.jars or spark.jars.packages): give both the same way " +
        s"(spark.jars, or --packages, for both; or both on the class path), or $optOut")
    else if (!sees(ours))
      Left(s"$format is not on the class path: add its package for Spark $minor ($howToAdd), or $optOut")
    else
      try ServiceLoader.load(api, ours).iterator.asScala.toList match {
          case List(one) => Right(one)
          case many => Left(s"this jar registers ${many.size} ${api.getName} where one is expected ($optOut)")
        }
      catch {
        case e @ (NonFatal(_) | _: LinkageError) =>
          Left(s"the $format on the class path is not the release this jar was built for (Spark $minor): $e")
      }
  }
}
