import sbt._
import sbt.Keys._
import sbtassembly.AssemblyPlugin.autoImport._

/**
 * Libraries bloomparquet ships inside its own jar, renamed under
 * io.bloomparquet.shaded: Spark's classpath may hold another version of them
 * (or none), and Python loads one jar. `package` builds that jar (sbt-assembly
 * with only these libraries; Spark, Hadoop, parquet-java and Scala stay the
 * runtime's), at the same path as before.
 */
object Shading {
  /** Caffeine 3.x needs Java 11+; a Java 8 jar (Spark 3.5) takes 2.9.x, the same API for what we use. */
  def caffeine(m: SparkMinor): ModuleID =
    "com.github.ben-manes.caffeine" % "caffeine" % (if (m.javaRelease < 11) "2.9.3" else "3.2.3")

  private def shipped(jar: File): Boolean = jar.getName.startsWith("caffeine-")

  def settings(m: SparkMinor): Seq[Setting[_]] = Seq(
    libraryDependencies += caffeine(m),
    assembly / assemblyShadeRules := Seq(
      ShadeRule.rename("com.github.benmanes.caffeine.**" -> "io.bloomparquet.shaded.caffeine.@1").inAll),
    assembly / assemblyExcludedJars := (assembly / fullClasspath).value.filterNot(a => shipped(a.data)),
    assemblyPackageScala / assembleArtifact := false,
    assembly / assemblyMergeStrategy := {
      case PathList("META-INF", "services", _*) => MergeStrategy.filterDistinctLines
      case PathList("META-INF", "versions", "17", "io", "bloomparquet", _*) => MergeStrategy.deduplicate // ours
      case PathList("META-INF", "bloomparquet", _*) => MergeStrategy.deduplicate // our LICENSE and NOTICE
      case PathList("META-INF", _*) => MergeStrategy.discard
      case "module-info.class" => MergeStrategy.discard
      case _ => MergeStrategy.deduplicate
    },
    assembly / test := {},
    assembly / assemblyOutputPath := (Compile / packageBin / artifactPath).value,
    Compile / packageBin := assembly.value
  )
}
