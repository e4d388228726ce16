import scala.xml.{Elem, Node}
import scala.xml.transform.{RewriteRule, RuleTransformer}

import sbt._
import sbt.Keys._

/**
 * What `bin/maven-repo DIR` publishes per Spark minor, as Spark libraries ship (Delta Lake, Iceberg):
 * `io.bloomparquet:bloomparquet-spark-<minor>_<scala binary>:<version>`, the jar (Caffeine shaded in),
 * its sources and a POM whose only dependencies are what the cluster provides: Spark SQL, parquet-java
 * and Scala, all `provided`, at the versions the jar was compiled against (Spark's Maven artifacts, or for a
 * minor Maven does not serve here, its pinned pyspark's jars).
 * The repository directory comes from $BLOOMPARQUET_MAVEN_REPO. With $BLOOMPARQUET_RELEASE set
 * (bin/release), each artifact also gets its API docs as the `-javadoc` jar Maven Central asks for
 * (Scaladoc: minutes per minor, so the test build leaves it out). Minors of one Scala binary version publish
 * the same API docs, made once by the newest of them (SparkMinors.docsMinor).
 */
object MavenArtifacts {
  val repoEnv = "BLOOMPARQUET_MAVEN_REPO"
  val releaseEnv = "BLOOMPARQUET_RELEASE"

  private def provided(group: String, artifact: String, version: String): Elem =
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
      <scope>provided</scope>
    </dependency>

  private def sharedDocs(m: SparkMinor): Seq[Setting[_]] = {
    val owner = SparkMinors.docsMinor(m)
    if (owner == m) Nil else Seq(Compile / packageDoc := (SparkMinors.coreProject(owner) / Compile / packageDoc).value)
  }

  /** parquet-java's version in a pyspark's jars/ folder (parquet-hadoop-<version>.jar). */
  private def pysparkParquet(jars: File): Option[String] = (jars * "parquet-hadoop-*.jar").get.map(
    _.getName.stripPrefix("parquet-hadoop-").stripSuffix(".jar")).headOption

  def settings(m: SparkMinor): Seq[Setting[_]] = sharedDocs(m) ++ Seq(
    publishMavenStyle := true,
    publishTo := sys.env.get(repoEnv).map(dir => MavenCache("bloomparquet-maven-repo", file(dir))),
    Compile / packageDoc / publishArtifact := sys.env.contains(releaseEnv),
    description := "Parquet split block Bloom filter pushdown for Apache Spark " + m.minor,
    Test / publishArtifact := false,
    pomIncludeRepository := (_ => false),
    // The POM sbt writes names the shaded Caffeine too: its dependencies become the provided ones, at the
    // versions the jar was compiled against (Maven's Spark and the parquet-java it resolved, or the pyspark's).
    makePom := {
      val pom = makePom.value
      val resolved = (Compile / update).value.allModules.find(_.name == "parquet-hadoop").map(_.revision)
      val parquet = resolved
        .orElse(pysparkParquet(SparkMinors.pysparkJars((LocalRootProject / baseDirectory).value, m)))
        .getOrElse(SparkMinors.fail(s"no parquet-hadoop on Spark ${m.minor}'s compile classpath"))
      val deps = Seq(
        provided("org.apache.spark", s"spark-sql_${SparkMinors.binary(m.scala)}", m.compiledAgainst),
        provided("org.apache.parquet", "parquet-hadoop", parquet),
        provided("org.scala-lang", "scala-library", m.scala)
      )
      val providedOnly = new RewriteRule {
        override def transform(n: Node): Seq[Node] = n match {
          case e: Elem if e.label == "dependencies" => e.copy(child = deps)
          case other => other
        }
      }
      scala.xml.XML.save(pom.getPath, new RuleTransformer(providedOnly).transform(scala.xml.XML.loadFile(pom)).head,
        "UTF-8", xmlDecl = true)
      pom
    }
  )
}
