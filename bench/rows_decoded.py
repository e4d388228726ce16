"""Rows decoded by every bloomparquet route against Spark's own ``parquet`` reader at its defaults,
on the corpora of tests/test_rows_decoded.py (pyarrow's files with and without filters, DuckDB's,
Spark's and bloomparquet's writer's, all with dictionary-encoded UUID strings and page indexes).

    .venv/bin/python bench/rows_decoded.py

Per corpus and route: the rows the route's scans decoded over the whole query list, over Spark's,
and the largest ratio of any one query (decoded by the route / decoded by Spark; a query both
decode nothing counts 1). The test asserts the largest is at most 1.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import test_rows_decoded as corpus  # noqa: E402
from tests.decoded import decoded, ratio  # noqa: E402
from tests.routes import bloom_routes  # noqa: E402
from tests.spark_conf import spark_conf  # noqa: E402

import bloomparquet as bp  # noqa: E402


def main() -> int:
    spark = bp.session(**{"spark.sql.session.timeZone": "UTC"})
    base = Path(tempfile.mkdtemp(prefix="rows-decoded-"))
    paths = {"pyarrow": base / "pyarrow", "pyarrow_filters": base / "pyarrow_filters", "duckdb": base / "duckdb"}
    corpus.write_pyarrow(paths["pyarrow"], filters=False)
    corpus.write_pyarrow(paths["pyarrow_filters"], filters=True)
    corpus.write_duckdb(paths["duckdb"])
    paths["spark"] = base / "spark"
    corpus.write_spark(spark, paths["pyarrow"], paths["spark"], bloom=False)
    paths["bloomparquet"] = base / "bloomparquet"
    corpus.write_spark(spark, paths["pyarrow"], paths["bloomparquet"], bloom=True)

    print(f"{'corpus':<16} {'route':<15} {'decoded':>9} {'Spark':>9} {'total x':>8} {'max x':>6}")
    for name, path in paths.items():
        with bloom_routes(spark, path, f"bench_{name}") as (parquet, routes):
            sparks = [decoded(parquet.where(w))[1] for w in corpus.QUERIES]
            for route in corpus.ROUTES:
                df, confs = routes[route]
                with spark_conf(spark, confs):
                    ours = [decoded(df.where(w))[1] for w in corpus.QUERIES]
                worst = max(ratio(o, s) for o, s in zip(ours, sparks, strict=True))
                total = ratio(sum(ours), sum(sparks))
                print(
                    f"{name:<16} {route:<15} {sum(ours):>9,} {sum(sparks):>9,} {total:>7.2f}x {worst:>5.2f}x",
                    flush=True,
                )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
