#!/usr/bin/env python3
"""Bakes JSON Lines, JSON arrays or YAML streams with an EasyBake recipe on
Spark, one task per byte-range split, and writes the records (Parquet by
default). Submit it with the package beside it:

    spark-submit --py-files easybake_spark.zip bake_with_spark.py \\
        --easybake /opt/easybake --recipe users.recipe.json --each '[*]' \\
        --splits 64 --output s3a://bucket/users.parquet s3a://bucket/users.json

(``easybake_spark.zip`` is the ``easybake_spark`` folder zipped; in local
mode, run it from this folder and it is found as it is.)
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from easybake_spark import bake  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description="Bake inputs with an EasyBake recipe on Spark.")
    parser.add_argument("inputs", nargs="+", help="JSON Lines, JSON array or YAML stream files: paths or URIs Spark reads")
    parser.add_argument("--recipe", required=True, help="the recipe file (JSON or YAML)")
    parser.add_argument("--recipe-name", help="which recipe of the file, when it holds several")
    parser.add_argument("--each", required=True, help="the path to the records, e.g. '[*]'")
    parser.add_argument("--easybake", help="the easybake binary on the driver (default: on the PATH)")
    parser.add_argument("--format", dest="input_format", help="the inputs' format when the extension does not say")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--splits", type=int, help="byte ranges per file")
    group.add_argument("--split-bytes", type=int, help="bytes per range (default 128 MB)")
    parser.add_argument("--jobs", type=int, default=1, help="easybake --jobs in each task (default 1)")
    parser.add_argument("--ship-inputs", action="store_true", help="fetch local inputs to the executors too")
    parser.add_argument("--output", help="where to write the records; without it, print a few and the count")
    parser.add_argument("--output-format", default="parquet", help="a Spark writer format (default parquet)")
    parser.add_argument("--master", help="the Spark master, when spark-submit does not give one")
    options = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("easybake")
    if options.master:
        builder = builder.master(options.master)
    spark = builder.getOrCreate()
    try:
        frame = bake(
            spark, options.inputs, options.recipe, options.each, easybake=options.easybake, splits=options.splits,
            split_bytes=options.split_bytes, recipe_name=options.recipe_name, input_format=options.input_format,
            jobs=options.jobs, ship_inputs=options.ship_inputs)
        if options.output:
            frame.write.mode("overwrite").format(options.output_format).save(options.output)
        else:
            frame.show(5, truncate=False)
            print(f"{frame.count()} records")
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
