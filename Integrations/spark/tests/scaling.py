#!/usr/bin/env python3
"""How the Spark job scales, in one run (the "Beyond one machine" article):
a generated JSON array (and JSON Lines) file baked

- by one ``easybake bake --jobs 1`` process, the baseline;
- by 2 ``easybake bake --split I/2 --jobs 1`` processes side by side, without Spark;
- by the Spark job on ``local[2]`` with 1, 2 and 4 splits, written to Parquet;

and what a split costs: the skip to its first record, timed as
``easybake get --byte-range`` of an empty range at the file's last byte.

    python3 Integrations/spark/tests/scaling.py [--easybake PATH] [--megabytes 50]

Prints one line per run: seconds (best of ``--repeat``) and the ratio to the
baseline.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
sys.path.insert(0, os.path.dirname(__file__))

import generate  # noqa: E402


def best(repeat, run):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def processes(easybake, path, shares):
    """``shares`` easybake processes side by side, each baking its share."""
    running = []
    for share in range(shares):
        arguments = [easybake, "bake", "--recipe", generate.RECIPE, "--each", "[*]", "--jobs", "1"]
        if shares > 1:
            arguments += ["--split", f"{share}/{shares}"]
        running.append(subprocess.Popen(arguments + [path], stdout=subprocess.DEVNULL))
    for process in running:
        assert process.wait() == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--easybake", default=os.path.join(generate.ROOT, ".build", "release", "easybake"))
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    os.environ["TZ"] = "UTC"
    time.tzset()
    # Local mode on loopback only (see the test's fixture).
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    from pyspark.sql import SparkSession

    from easybake_spark import bake

    spark = (SparkSession.builder.master("local[2]").appName("easybake-scaling")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    folder = tempfile.mkdtemp(prefix="easybake-scaling-")
    try:
        for kind, write in [("json", generate.write_json_array), ("jsonl", generate.write_json_lines)]:
            path = os.path.join(folder, f"users.{kind}")
            count = write(path, options.megabytes * 1_000_000)
            size = os.path.getsize(path)
            print(f"{kind}: {size / 1e6:.0f} MB, {count} records")
            base = best(options.repeat, lambda: processes(options.easybake, path, 1))
            print(f"  1 process                        {base:6.2f} s  1.00")
            two = best(options.repeat, lambda: processes(options.easybake, path, 2))
            print(f"  2 processes, no Spark            {two:6.2f} s  {base / two:.2f}x")
            last = subprocess.run(
                [options.easybake, "get", "--byte-range", f"{size - 1}-{size - 1}", "[*]", path], capture_output=True)
            assert last.returncode == 0, last.stderr
            skip = best(options.repeat, lambda: subprocess.run(
                [options.easybake, "get", "--byte-range", f"{size - 1}-{size - 1}", "[*]", path], capture_output=True))
            print(f"  skip to the last byte            {skip:6.2f} s  ({skip / base:.0%} of the bake)")
            for splits in (1, 2, 4):
                output = os.path.join(folder, f"out-{kind}-{splits}.parquet")

                def run():
                    frame = bake(spark, [path], generate.RECIPE, "[*]", easybake=options.easybake, splits=splits)
                    frame.write.mode("overwrite").parquet(output)

                seconds = best(options.repeat, run)
                print(f"  Spark local[2], {splits} split{'s' if splits > 1 else ' '}       {seconds:6.2f} s  {base / seconds:.2f}x")
    finally:
        spark.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
