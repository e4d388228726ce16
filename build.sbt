// bloomparquet: one source tree, one jar per supported Spark minor, each
// compiled against the exact Spark that minor's pinned pyspark ships (its jars/
// folder), so the jar we build is the jar PySpark loads. The minors and their
// pins live in project/spark-versions.properties only. `jvm` is the default
// (newest) minor, installed in .venv: tests and benchmarks run on it. The other
// minors' pysparks live in .venvs/spark-<minor> (bin/setup --all-sparks).
import scala.sys.process._

lazy val sparkVersions: Map[String, String] = {
  val props = new java.util.Properties()
  IO.load(props, file("project/spark-versions.properties"))
  props.stringPropertyNames.toArray(Array.empty[String]).map(k => k -> props.getProperty(k).trim).toMap
}
lazy val defaultMinor: String = sparkVersions("default")
lazy val otherMinors: Seq[String] = sparkVersions.keys.filter(k => k != "default" && k != defaultMinor).toSeq.sorted

// The shim folder of a minor: what differs between minors (jvm/src/main/scala-spark-*).
def shimFolder(minor: String): String = if (minor == "4.0") "scala-spark-4.0" else "scala-spark-4.1-4.3"

// The venv holding a minor's pinned pyspark.
def venvOf(minor: String): File = if (minor == defaultMinor) file(".venv") else file(s".venvs/spark-$minor")

// A minor's pyspark jars folder: $SPARK_JARS_DIR for the default minor, else its venv's.
def sparkJarsDir(minor: String): File = {
  val version = sparkVersions(minor)
  val fromEnv = if (minor == defaultMinor) sys.env.get("SPARK_JARS_DIR").map(file) else None
  val dir = fromEnv.getOrElse {
    val py = venvOf(minor) / "bin" / "python"
    if (!py.exists) sys.error(s"no ${venvOf(minor)}: run bin/setup${if (minor == defaultMinor) "" else " --all-sparks"}")
    file(Seq(py.getAbsolutePath, "-c",
      "import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), 'jars'))").!!.trim)
  }
  val sparkSql = dir / s"spark-sql_2.13-$version.jar"
  if (!sparkSql.exists) sys.error(s"$sparkSql not found: ${venvOf(minor)} does not hold pyspark==$version; run bin/setup")
  dir
}

// The Scala a minor's Spark was built with; the default's while that minor is not set up.
def sparkScalaVersion(minor: String): String = {
  val Lib = """scala-library-(2\.13\.[0-9]+)\.jar""".r
  scala.util.Try(sparkJarsDir(minor)).toOption
    .flatMap(_.list.collectFirst { case Lib(v) => v })
    .getOrElse(if (minor == defaultMinor) sys.error(s"no scala-library for Spark $minor") else sparkScalaVersion(defaultMinor))
}

// Spark 4 on JDK 17+ needs these opens; the Vector API is an incubator module.
lazy val jvmFlags = Seq(
  "--add-modules=jdk.incubator.vector",
  "-XX:+IgnoreUnrecognizedVMOptions",
  "--add-opens=java.base/java.lang=ALL-UNNAMED",
  "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
  "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens=java.base/java.io=ALL-UNNAMED",
  "--add-opens=java.base/java.net=ALL-UNNAMED",
  "--add-opens=java.base/java.nio=ALL-UNNAMED",
  "--add-opens=java.base/java.util=ALL-UNNAMED",
  "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
  "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
  "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
  "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
  "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
  "-Djdk.reflect.useDirectMethodHandle=false",
  "-Dio.netty.tryReflectionSetAccessible=true",
  "-Xss4m"
)

ThisBuild / organization := "io.bloomparquet"
ThisBuild / version := "0.1.0"
ThisBuild / scalaVersion := sparkScalaVersion(defaultMinor)

// What every minor's jar is built with; Spark (and parquet-java, Hadoop) are
// provided by the runtime: taken from that minor's pyspark, never resolved.
def sparkMinorSettings(minor: String) = Seq(
  name := "bloomparquet",
  scalaVersion := sparkScalaVersion(minor),
  Compile / unmanagedSourceDirectories += (LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / shimFolder(minor),
  Compile / unmanagedJars ++= (sparkJarsDir(minor) ** "*.jar").classpath,
  compileOrder := CompileOrder.JavaThenScala,
  javacOptions ++= Seq("-source", "17", "-target", "17", "--add-modules", "jdk.incubator.vector",
    "-Xlint:all,-options"),
  Compile / doc / javacOptions := Seq("--add-modules", "jdk.incubator.vector"),
  scalacOptions ++= Seq("-release", "17", "-deprecation", "-feature", "-unchecked", "-Xlint:_,-missing-interpolator")
) ++ Shading.settings

lazy val jvm = (project in file("jvm"))
  .settings(sparkMinorSettings(defaultMinor))
  .settings(
    libraryDependencies += "org.scalameta" %% "munit" % "1.2.4" % Test,
    Compile / packageBin / artifactPath := baseDirectory.value / "target" / "bloomparquet.jar",
    // Test-only py4j entry points and file systems for the Python tests (bin/setup, bin/test).
    Test / packageBin / artifactPath := baseDirectory.value / "target" / "bloomparquet-tests.jar",
    Test / fork := true,
    Test / javaOptions ++= jvmFlags ++ Seq("-Xmx3g"),
    Test / parallelExecution := false,
    Test / testOptions += Tests.Argument(TestFrameworks.MUnit, "-b")
  )

// The same sources built for each other supported minor (`bin/sbt spark40/package`):
// jvm/target/spark-<minor>/bloomparquet.jar. Their tests are the cross-version pytest suite.
def otherMinor(minor: String): Project =
  Project(s"spark${minor.replace(".", "")}", file(s"jvm/target/build-spark-$minor"))
    .settings(sparkMinorSettings(minor))
    .settings(
      Compile / unmanagedSourceDirectories ++= Seq(
        (LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / "scala",
        (LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / "java"),
      Compile / unmanagedResourceDirectories += (LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / "resources",
      Compile / packageBin / artifactPath :=
        (LocalRootProject / baseDirectory).value / "jvm" / "target" / s"spark-$minor" / "bloomparquet.jar",
      publish / skip := true
    )

lazy val spark40 = otherMinor("4.0")
lazy val spark41 = otherMinor("4.1")
lazy val spark42 = otherMinor("4.2")

// JMH kernel benchmarks (bench/jmh.sh). Not packaged, never run by bin/test.
lazy val bench = (project in file("jvm-bench"))
  .dependsOn(jvm)
  .enablePlugins(JmhPlugin)
  .settings(
    publish / skip := true,
    Compile / unmanagedJars ++= (sparkJarsDir(defaultMinor) ** "parquet-*.jar").classpath,
    javacOptions ++= Seq("-source", "17", "-target", "17", "--add-modules", "jdk.incubator.vector", "-Xlint:all,-options,-processing")
  )

lazy val root = (project in file("."))
  .aggregate(jvm, bench)
  .settings(publish / skip := true)
