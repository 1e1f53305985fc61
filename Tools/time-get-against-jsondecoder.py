#!/usr/bin/env python3
"""Times `easybake get` against JSONDecoder decoding the same file, as whole
processes: the figure issue 30 sets a target for ("`easybake get` of the last
record of a 100 MB file >= 30x JSONDecoder decoding the same file").

The commands run interleaved, round after round, so that a slow moment of
the machine falls on all of them; the script prints each command's best and
median time and its ratio to JSONDecoder's. JSONDecoder is the benchmark
harness's own contender (`bake/json/JSONDecoder`, one iteration in a child
process): it decodes the file into the benchmark's `User` models.

Build both first:
    swift build -c release --product easybake
    swift build -c release --package-path Benchmarks

Usage:
    Tools/time-get-against-jsondecoder.py FILE [PATH ...] [--rounds N]
        [--easybake BIN] [--bench BIN]

FILE is a users file of the benchmark (Benchmarks/Data/users-100MB-seed42.json,
which `easybake-bench --size 100MB` writes); each PATH is one `easybake get`
(by default the last record's id from the end, `users[-1].id`).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time


def run(command):
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {result.stderr.decode(errors='replace')}")
    return elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("paths", nargs="*", default=["users[-1].id"])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--easybake", default=".build/release/easybake")
    parser.add_argument("--bench", default="Benchmarks/.build/release/easybake-bench")
    arguments = parser.parse_args()

    size = os.path.getsize(arguments.file)
    commands = {f"easybake get {path}": [arguments.easybake, "get", path, arguments.file] for path in arguments.paths}
    commands["JSONDecoder"] = [
        arguments.bench, "--child", "bake/json/JSONDecoder", "--child-input", arguments.file,
        "--child-input-bytes", str(size), "--iterations", "1",
    ]
    times = {name: [] for name in commands}
    for _ in range(arguments.rounds):
        for name, command in commands.items():
            times[name].append(run(command))

    decoder = times["JSONDecoder"]
    for name, seconds in times.items():
        best, median = min(seconds), statistics.median(seconds)
        print(
            f"{name:40} best {best:.4f} s, median {median:.4f} s;"
            f" JSONDecoder's time / this: {min(decoder) / best:.1f}x best, {statistics.median(decoder) / median:.1f}x median"
        )


if __name__ == "__main__":
    main()
