package io.bloomparquet.testing

import java.util.concurrent.ConcurrentLinkedQueue

import org.apache.logging.log4j.{Level, LogManager}
import org.apache.logging.log4j.core.{LogEvent, LoggerContext}
import org.apache.logging.log4j.core.appender.AbstractAppender
import org.apache.logging.log4j.core.config.Property

/** The warnings bloomparquet logged in this JVM since [[start]] (tests read them through py4j). */
object LoggedWarnings {
  private val seen = new ConcurrentLinkedQueue[String]()

  private lazy val appender: AbstractAppender = {
    val a = new AbstractAppender("bloomparquet-warnings", null, null, true, Property.EMPTY_ARRAY) {
      override def append(event: LogEvent): Unit =
        if (event.getLevel.isMoreSpecificThan(Level.WARN) && event.getLoggerName.startsWith("io.bloomparquet"))
          seen.add(event.getMessage.getFormattedMessage)
    }
    a.start()
    val context = LogManager.getContext(false).asInstanceOf[LoggerContext]
    context.getConfiguration.getRootLogger.addAppender(a, Level.WARN, null)
    context.updateLoggers()
    a
  }

  def start(): Unit = appender

  def all(): Array[String] = seen.toArray(new Array[String](0))
}
