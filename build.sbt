// bloomparquet: the JVM module compiles against the exact Spark that the pinned
// pyspark wheel ships (its jars/ folder), so the jar we build is the jar PySpark
// loads. The pin lives in pyproject.toml only; bin/setup installs it into .venv.
import scala.sys.process._

lazy val pinnedPyspark: String = {
  val Pin = """\s*"pyspark==([0-9][^"]*)".*""".r
  IO.readLines(file("pyproject.toml")).collectFirst { case Pin(v) => v }
    .getOrElse(sys.error("pyproject.toml must pin pyspark as \"pyspark==X.Y.Z\""))
}

// The pyspark jars folder: $SPARK_JARS_DIR, else the one in .venv.
lazy val sparkJarsDir: File = {
  val fromEnv = sys.env.get("SPARK_JARS_DIR").map(file)
  val fromVenv = {
    val py = file(".venv/bin/python")
    if (!py.exists) None
    else Some(file(Seq(py.getAbsolutePath, "-c",
      "import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), 'jars'))").!!.trim))
  }
  val dir = fromEnv.orElse(fromVenv).getOrElse(sys.error("no .venv: run bin/setup first"))
  val sparkSql = dir / s"spark-sql_2.13-$pinnedPyspark.jar"
  if (!sparkSql.exists) sys.error(s"$sparkSql not found: .venv does not hold pyspark==$pinnedPyspark; run bin/setup")
  dir
}

lazy val sparkScalaVersion: String = {
  val Lib = """scala-library-(2\.13\.[0-9]+)\.jar""".r
  sparkJarsDir.list.collectFirst { case Lib(v) => v }.getOrElse(sys.error(s"no scala-library in $sparkJarsDir"))
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
ThisBuild / scalaVersion := sparkScalaVersion

lazy val jvm = (project in file("jvm"))
  .settings(
    name := "bloomparquet",
    // Spark (and parquet-java, Hadoop) are provided by the runtime: take them
    // from the pinned pyspark, never from a second resolution.
    Compile / unmanagedJars ++= (sparkJarsDir ** "*.jar").classpath,
    libraryDependencies += "org.scalameta" %% "munit" % "1.2.4" % Test,
    compileOrder := CompileOrder.JavaThenScala,
    javacOptions ++= Seq("-source", "17", "-target", "17", "--add-modules", "jdk.incubator.vector",
      "-Xlint:all,-options"),
    Compile / doc / javacOptions := Seq("--add-modules", "jdk.incubator.vector"),
    scalacOptions ++= Seq("-release", "17", "-deprecation", "-feature", "-unchecked", "-Xlint:_,-missing-interpolator"),
    Compile / packageBin / artifactPath := baseDirectory.value / "target" / "bloomparquet.jar",
    // Test-only py4j entry points and file systems for the Python tests (bin/setup, bin/test).
    Test / packageBin / artifactPath := baseDirectory.value / "target" / "bloomparquet-tests.jar",
    Test / fork := true,
    Test / javaOptions ++= jvmFlags ++ Seq("-Xmx3g"),
    Test / parallelExecution := false,
    Test / testOptions += Tests.Argument(TestFrameworks.MUnit, "-b")
  )

// JMH kernel benchmarks (bench/jmh.sh). Not packaged, never run by bin/test.
lazy val bench = (project in file("jvm-bench"))
  .dependsOn(jvm)
  .enablePlugins(JmhPlugin)
  .settings(
    publish / skip := true,
    Compile / unmanagedJars ++= (sparkJarsDir ** "parquet-*.jar").classpath,
    javacOptions ++= Seq("-source", "17", "-target", "17", "--add-modules", "jdk.incubator.vector", "-Xlint:all,-options,-processing")
  )

lazy val root = (project in file("."))
  .aggregate(jvm, bench)
  .settings(publish / skip := true)
