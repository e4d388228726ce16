// JMH benchmarks for the `bench` subproject (jvm-bench/); see bench/jmh.sh.
addSbtPlugin("pl.project13.scala" % "sbt-jmh" % "0.4.8")
// Shades third-party libraries into bloomparquet.jar (project/Shading.scala).
addSbtPlugin("com.eed3si9n" % "sbt-assembly" % "2.3.1")
// Formatting (.scalafmt.conf): bin/test runs scalafmtCheckAll and scalafmtSbtCheck.
addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.6.2")
