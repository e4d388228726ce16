"""Writing Parquet files with modular encryption: parquet-java's PropertiesDrivenCryptoFactory
and the test jar's in-memory KMS (io.bloomparquet.testing.InMemoryKms), through Spark's
``parquet`` or our writer. Column ``k`` is sealed with its own key; other columns stay plaintext."""

from __future__ import annotations

import base64
from pathlib import Path

from .write_format import WRITE_FORMAT

# An access token of its own: parquet-java caches KMS clients (with their key list) per token for
# 10 minutes, and other code in this JVM (the user guide's example) uses the default token.
KEYS = {
    "parquet.crypto.factory.class": "org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory",
    "parquet.encryption.key.access.token": "bloomparquet-encryption-tests",
    "parquet.encryption.kms.client.class": "io.bloomparquet.testing.InMemoryKms",
    "parquet.encryption.key.list": "kf: {}, kc: {}".format(
        base64.b64encode(b"footer key 16 by").decode(), base64.b64encode(b"column key 16 by").decode()
    ),
}
# Column k is sealed with its own key; the others stay plaintext (their filters too).
WRITE_KEYS = {**KEYS, "parquet.encryption.footer.key": "kf", "parquet.encryption.column.keys": "kc: k"}
# footer kind -> parquet.encryption.plaintext.footer
FOOTERS = {"encrypted": "false", "plaintext": "true"}


def write_encrypted(df, out: Path, writer: str, footer: str, ndv: dict[str, int]) -> None:
    """``df`` (with a column ``k``) to the directory ``out`` by ``writer`` (``spark`` or ``ours``)
    with an ``encrypted`` or ``plaintext`` footer and filters on the columns of ``ndv`` (their
    expected distinct counts, for Spark's writer)."""
    w = df.write.options(**WRITE_KEYS).option("parquet.encryption.plaintext.footer", FOOTERS[footer])
    w = w.option("parquet.block.size", 32768)
    if writer == "spark":
        w = w.format("parquet")
        for c, n in ndv.items():
            w = w.option(f"parquet.bloom.filter.enabled#{c}", "true").option(
                f"parquet.bloom.filter.expected.ndv#{c}", n
            )
    else:
        w = w.format(WRITE_FORMAT).option("bloom.columns", ", ".join(ndv))
    w.save(str(out))
