import scala.xml.{Elem, Node}
import scala.xml.transform.{RewriteRule, RuleTransformer}

import sbt._
import sbt.Keys._

/**
 * What `bin/maven-repo DIR` publishes per Spark minor, as Spark libraries ship (Delta Lake, Iceberg):
 * `io.bloomparquet:bloomparquet-spark-<minor>_<scala binary>:<version>`, the jar (Caffeine shaded in),
 * its sources and a POM whose only dependencies are what the cluster provides: Spark SQL, parquet-java
 * and Scala, all `provided`, at the versions the jar was compiled against (its pinned pyspark's jars).
 * The repository directory comes from $BLOOMPARQUET_MAVEN_REPO.
 */
object MavenArtifacts {
  val repoEnv = "BLOOMPARQUET_MAVEN_REPO"

  private def provided(group: String, artifact: String, version: String): Elem =
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
      <scope>provided</scope>
    </dependency>

  /** parquet-java's version in a pyspark's jars/ folder (parquet-hadoop-<version>.jar). */
  private def parquetVersion(
      jars: File): String = (jars * "parquet-hadoop-*.jar").get.map(_.getName.stripPrefix("parquet-hadoop-").stripSuffix(".jar")).headOption
    .getOrElse(SparkMinors.fail(s"no parquet-hadoop jar in $jars"))

  def settings(m: SparkMinor): Seq[Setting[_]] = Seq(
    publishMavenStyle := true,
    publishTo := sys.env.get(repoEnv).map(dir => MavenCache("bloomparquet-maven-repo", file(dir))),
    Compile / packageDoc / publishArtifact := false,
    Test / publishArtifact := false,
    pomIncludeRepository := (_ => false),
    pomPostProcess := { // a setting: the jars are looked at only when a POM is made
      val root = (LocalRootProject / baseDirectory).value
      (node: Node) => new RuleTransformer(providedOnly(root, m)).transform(node).head
    }
  )

  private def providedOnly(root: File, m: SparkMinor): RewriteRule = {
    val jars = SparkMinors.pysparkJars(root, m)
    val deps = Seq(
      provided("org.apache.spark", s"spark-sql_${SparkMinors.binary(m.scala)}", m.spark),
      provided("org.apache.parquet", "parquet-hadoop", parquetVersion(jars)),
      provided("org.scala-lang", "scala-library", m.scala)
    )
    new RewriteRule {
      override def transform(n: Node): Seq[Node] = n match {
        case e: Elem if e.label == "dependencies" => e.copy(child = deps)
        case other => other
      }
    }
  }
}
