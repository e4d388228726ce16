"""Reference implementation of Parquet's split block Bloom filter, in numpy.

Used to cross-verify the JVM kernels bit for bit: same hashes in, same bitset
bytes and same check answers out.
"""

from .file import BloomFilterFormatError, parse_bloom_filter, read_bloom_filters
from .hashing import PhysicalType, xxh64_plain
from .sbbf import MAX_BYTES, MIN_BYTES, SplitBlockBloomFilter, bits_per_value, optimal_num_bytes

__all__ = [
    "BloomFilterFormatError",
    "MAX_BYTES",
    "MIN_BYTES",
    "PhysicalType",
    "SplitBlockBloomFilter",
    "bits_per_value",
    "optimal_num_bytes",
    "parse_bloom_filter",
    "read_bloom_filters",
    "xxh64_plain",
]
