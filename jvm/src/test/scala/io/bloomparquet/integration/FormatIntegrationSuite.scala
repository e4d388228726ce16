package io.bloomparquet.integration

import java.net.URLClassLoader
import java.nio.file.Files
import javax.tools.ToolProvider

/** A format interface this test jar registers an implementation of (its META-INF/services), and one it does not. */
trait RegisteredFormat { def name: String }
final class RegisteredFormatImpl extends RegisteredFormat { override def name: String = "registered" }
trait UnregisteredFormat

class FormatIntegrationSuite extends munit.FunSuite {
  private def load[T](api: Class[T], probe: String): Either[String, T] =
    FormatIntegration.load(api, "Some Format", probe, "its package", "turn it off")

  test("the registered implementation, once the format's classes are visible from the jar's loader") {
    assertEquals(load(classOf[RegisteredFormat], "java.lang.String").map(_.name), Right("registered"))
  }

  test("a jar built without the integration says the format has no release for this Spark") {
    val why = load(classOf[UnregisteredFormat], "java.lang.String").left.getOrElse(fail("loaded"))
    assert(why.contains("has no Some Format support: Some Format publishes no release for Spark"), why)
    assert(why.endsWith("(turn it off)"), why)
  }

  test("a format whose classes are nowhere is not on the class path") {
    val why = load(classOf[RegisteredFormat], "no.such.FormatClass").left.getOrElse(fail("loaded"))
    assert(why.startsWith("Some Format is not on the class path: add its package for Spark"), why)
    assert(why.contains("(its package), or turn it off"), why)
  }

  test("a format only a loader below the jar's sees: refused, saying to load both the same way") {
    // A class in a directory only a child of this jar's loader reads, as Delta through spark.jars.packages
    // below a jar on spark.driver.extraClassPath.
    val dir = Files.createTempDirectory("format-below")
    val source = dir.resolve("OnlyBelow.java")
    Files.write(source, "package below; public class OnlyBelow {}".getBytes("UTF-8"))
    assertEquals(ToolProvider.getSystemJavaCompiler.run(null, null, null, "-d", dir.toString, source.toString), 0)
    val below = new URLClassLoader(Array(dir.toUri.toURL), getClass.getClassLoader)
    val thread = Thread.currentThread
    val before = thread.getContextClassLoader
    thread.setContextClassLoader(below)
    val why = try load(classOf[RegisteredFormat], "below.OnlyBelow").left.getOrElse(fail("loaded"))
    finally thread.setContextClassLoader(before)
    assert(why.contains("cannot see Some Format's classes"), why)
    assert(why.contains("give both the same way"), why)
  }
}
