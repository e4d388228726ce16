"""bloomparquet: Parquet split block Bloom filter pushdown for Apache Spark.

``session()`` gives a SparkSession with the jar loaded; ``reference`` holds the
numpy SBBF and xxHash64 used to cross-verify the JVM.
"""

from ._jar import jar_path
from ._session import configure, session
from .writer import WRITE_FORMAT, bloom_options, retrofit, write_bloom

__all__ = ["WRITE_FORMAT", "bloom_options", "configure", "jar_path", "retrofit", "session", "write_bloom"]
__version__ = "0.1.0"
