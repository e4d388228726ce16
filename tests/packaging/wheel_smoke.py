"""Run inside a fresh virtual environment holding an installed bloomparquet wheel
(never the checkout): a write with filters, a pruned read and SQL on a path.
Prints one JSON line of what it saw; exits non-zero on any failure."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import pyspark

import bloomparquet as bp


def main() -> int:
    assert "site-packages" in bp.__file__, f"bloomparquet imported from {bp.__file__}, not the installed wheel"
    jar = bp.jar_path()
    spark = bp.session()
    out = str(Path(tempfile.mkdtemp()) / "t")
    # Even keys in shuffled order (7919 is coprime to 200,000): statistics can't prune, filters can.
    df = spark.range(0, 200_000, 1, 2).selectExpr("(id * 7919) % 200000 * 2 AS k", "concat('e', id) AS email")
    bp.write_bloom(df.coalesce(1), out, ["k"], fpp=0.001, **{"parquet.block.size": str(256 * 1024)})
    pruned = bp.read_bloom(spark, out).where("k = 12345")  # odd: absent
    assert pruned.collect() == []
    m = bp.scan_metrics(pruned)
    # At FPP 0.001 a row group survives a miss with probability 0.001: at least half are pruned.
    assert m["bloomRowGroupsTotal"] > 1 and 2 * m["bloomRowGroupsPrunedByBloom"] >= m["bloomRowGroupsTotal"], m
    hit = spark.sql(f"SELECT email FROM bloomparquet.`{out}` WHERE k = {1234 * 7919 % 200000 * 2}").collect()
    assert [r.email for r in hit] == ["e1234"], hit
    print(
        json.dumps(
            {
                "pyspark": pyspark.__version__,
                "spark": spark.version,
                "jar": str(jar),
                "row_groups": m["bloomRowGroupsTotal"],
                "pruned": m["bloomRowGroupsPrunedByBloom"],
                "out": out,
            }
        )
    )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
