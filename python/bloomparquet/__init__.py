"""bloomparquet: Parquet split block Bloom filter pushdown for Apache Spark.

``session()`` gives a SparkSession with the jar loaded; ``read_bloom()`` reads
with bloom-filter pruning (``spark.read.format("bloomparquet")``);
``scan_metrics()`` tells what a query pruned; ``build_digest()`` gives a table a bloom
digest, so lookups plan without reading every file. ``reference`` holds the numpy
SBBF and xxHash64 used to cross-verify the JVM.
"""

from ._iceberg import iceberg_filter_properties
from ._jar import delta_package, iceberg_package, jar_path
from ._session import configure, session
from .read import read_bloom, scan_metrics
from .table_digest import build_digest, refresh_digest
from .writer import WRITE_FORMAT, bloom_options, retrofit, write_bloom

__all__ = [
    "WRITE_FORMAT",
    "bloom_options",
    "build_digest",
    "configure",
    "delta_package",
    "iceberg_filter_properties",
    "iceberg_package",
    "jar_path",
    "read_bloom",
    "refresh_digest",
    "retrofit",
    "scan_metrics",
    "session",
    "write_bloom",
]
__version__ = "0.1.0"
