"""Whether a column chunk's data pages are all dictionary-encoded — so a reader's
dictionary filter can rule a value out of the chunk — or the writer fell back to
plain pages (its dictionary grew past the page-size limit), where only min/max
statistics and a bloom filter can.

pyarrow does not expose a chunk's page encoding statistics, so they come from the
footer as ``open_footer`` decoded it with the reference's compact-protocol decoder
(field ids from parquet.thrift).
"""

from __future__ import annotations

from typing import Any

from ..reference._rawfooter import column_chunks
from .footer import ParquetFooter

_PLAIN_DICTIONARY, _RLE_DICTIONARY = 2, 8
_LEVEL_ENCODINGS = {3, 4}  # RLE, BIT_PACKED: repetition and definition levels
_DATA_PAGES = {0, 3}  # DATA_PAGE, DATA_PAGE_V2


def dictionary_only(footer: ParquetFooter) -> dict[tuple[int, int], bool | None]:
    """Per (row group, leaf column index): True when every data page is
    dictionary-encoded, False when some page is not (or there is no dictionary),
    None when the footer cannot tell (v2 encodings without page encoding stats)."""
    out: dict[tuple[int, int], bool | None] = {}
    for rg, chunks in enumerate(column_chunks(footer.thrift)):
        for c, meta in enumerate(chunks):
            out[(rg, c)] = _chunk_dictionary_only(meta)
    return out


def _chunk_dictionary_only(meta: dict[int, Any]) -> bool | None:
    stats = meta.get(13)  # ColumnMetaData.encoding_stats: [{1: page type, 2: encoding, 3: count}]
    if stats:
        data = [s for s in stats if s.get(1) in _DATA_PAGES and s.get(3, 1) > 0]
        return bool(data) and all(s.get(2) in (_PLAIN_DICTIONARY, _RLE_DICTIONARY) for s in data)
    encodings = set(meta.get(2, []))  # ColumnMetaData.encodings, of every page
    if _PLAIN_DICTIONARY in encodings:
        # Parquet 1.0 dictionary encoding: any other value encoding is a fallback page.
        return not (encodings - {_PLAIN_DICTIONARY} - _LEVEL_ENCODINGS)
    # RLE_DICTIONARY pages come with a PLAIN dictionary page: a fallback page looks the same.
    return None if _RLE_DICTIONARY in encodings else False
