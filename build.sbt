// bloomparquet: one source tree, one jar per supported Spark minor, each
// compiled against that minor's own Spark: its Maven artifacts (provided)
// where Maven Central serves the minor, else the jars/ folder of its pinned
// pyspark (the default minor's, 4.3, which Maven lacks here). The minors, their
// pins and their Scala live in project/spark-versions.properties only, read by
// project/SparkMinors.scala (no Python, no venv needed to load the build).
// `jvm` is the default (newest) minor, installed in .venv: tests and benchmarks
// run on it. Every other minor is a project of its own (spark40, spark41...,
// added by SparkMinorProjects), tested on its pinned pyspark in
// .venvs/spark-<minor> (bin/setup --all-sparks). `bin/sbt packageAllSparks`
// builds every minor's jar. A minor with a Delta Lake release also has a
// project for the Delta integration (delta35, delta40...), the only sources
// compiled against Delta; its classes go into that minor's jar.

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
ThisBuild / licenses := Seq("Apache-2.0" -> url("https://www.apache.org/licenses/LICENSE-2.0.txt"))
ThisBuild / scalaVersion := SparkMinors.default.scala

lazy val jvm = (project in file("jvm"))
  .settings(SparkMinors.settings(SparkMinors.default))
  .settings(
    libraryDependencies += "org.scalameta" %% "munit" % "1.2.4" % Test,
    Compile / packageBin / artifactPath := SparkMinors.jarPath((LocalRootProject / baseDirectory).value, SparkMinors.default),
    // Test-only py4j entry points and file systems for the Python tests (bin/setup, bin/test).
    Test / packageBin / artifactPath := baseDirectory.value / "target" / "bloomparquet-tests.jar",
    Test / fork := true,
    Test / javaOptions ++= jvmFlags ++ Seq("-Xmx3g"),
    Test / parallelExecution := false,
    Test / testOptions += Tests.Argument(TestFrameworks.MUnit, "-b")
  )

addCommandAlias("packageAllSparks", SparkMinors.packageAllCommand)
addCommandAlias("publishAllSparks", SparkMinors.publishAllCommand)
// Formatting (.scalafmt.conf) of every source folder, the other minors' shim folders included, and the build.
addCommandAlias("fmt", SparkMinors.withEveryOtherMinor(Seq("scalafmtAll", "scalafmtSbt"), "scalafmt"))
addCommandAlias("fmtCheck", SparkMinors.withEveryOtherMinor(Seq("scalafmtCheckAll", "scalafmtSbtCheck"), "scalafmtCheck"))

// JMH kernel benchmarks (bench/jmh.sh). Not packaged, never run by bin/test.
lazy val bench = (project in file("jvm-bench"))
  .dependsOn(jvm)
  .enablePlugins(JmhPlugin)
  .settings(
    publish / skip := true,
    Compile / unmanagedJars ++=
      (SparkMinors.pysparkJars((LocalRootProject / baseDirectory).value, SparkMinors.default) **
        ("parquet-*.jar" || "hadoop-client-*.jar")).classpath,
    javacOptions ++= Seq("-source", "17", "-target", "17", "--add-modules", "jdk.incubator.vector", "-Xlint:all,-options,-processing")
  )

lazy val root = (project in file("."))
  .aggregate(jvm, bench)
  .settings(publish / skip := true)
