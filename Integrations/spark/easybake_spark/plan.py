"""The split plan: which byte ranges of which files the tasks bake.

A plan is plain data, with nothing of Spark in it, so that the same ranges
can be handed to GNU parallel, to serverless functions or to a queue (see
the "Beyond one machine" article). Each range's records are the records
that *begin* in it (``easybake bake --byte-range START-END``), so the ranges
of a partition of a file read every record exactly once, in order, whatever
the offsets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple

#: The size of a split when neither a count nor a size is given: Spark's own
#: default for files (``spark.sql.files.maxPartitionBytes``).
DEFAULT_SPLIT_BYTES = 128 << 20


@dataclass(frozen=True)
class Split:
    """One task's share: the records of ``uri`` that begin in ``start`` to
    ``end`` (``end`` excluded)."""

    uri: str
    start: int
    end: int
    #: Which split of the file this is, and of how many.
    index: int
    count: int

    @property
    def byte_range(self) -> str:
        """The ``--byte-range`` argument: ``START-END``."""
        return f"{self.start}-{self.end}"

    def describe(self) -> str:
        """How errors name the split: the file and its byte range."""
        return f"{self.uri} bytes {self.start}-{self.end} (split {self.index + 1} of {self.count})"


def ranges(size: int, count: int) -> List[Tuple[int, int]]:
    """``count`` ranges that cover ``0..size`` without overlap, as
    ``easybake --split I/N`` computes them."""
    if count < 1:
        raise ValueError(f"a file splits into at least 1 range, not {count}")
    return [(size * i // count, size * (i + 1) // count) for i in range(count)]


def plan(
    files: Iterable[Tuple[str, int]],
    splits: Optional[int] = None,
    split_bytes: Optional[int] = None,
) -> List[Split]:
    """The splits of ``files`` (each a ``(uri, size)`` pair), in file order.

    ``splits`` divides every file into that many ranges; otherwise each file
    gets one range per ``split_bytes`` (default 128 MB), at least one.
    """
    if splits is not None and split_bytes is not None:
        raise ValueError("give either splits or split_bytes, not both")
    result: List[Split] = []
    for uri, size in files:
        if size < 0:
            raise ValueError(f"{uri}: a size cannot be negative ({size})")
        count = splits if splits is not None else max(1, math.ceil(size / (split_bytes or DEFAULT_SPLIT_BYTES)))
        for index, (start, end) in enumerate(ranges(size, count)):
            result.append(Split(uri, start, end, index, count))
    return result


def command(
    split: Split,
    path: str,
    recipe: str,
    each: str,
    easybake: str = "easybake",
    recipe_name: Optional[str] = None,
    input_format: Optional[str] = None,
    jobs: int = 1,
    extra: Sequence[str] = (),
) -> List[str]:
    """The ``easybake bake`` command line that bakes ``split``, reading the
    file at ``path`` (the split's file, where the task can open it)."""
    arguments = [easybake, "bake", "--recipe", recipe, "--each", each, "--byte-range", split.byte_range, "--jobs", str(jobs)]
    if recipe_name:
        arguments += ["--recipe-name", recipe_name]
    if input_format:
        arguments += ["--format", input_format]
    arguments += list(extra)
    arguments.append(path)
    return arguments


def main(argv: Optional[Sequence[str]] = None) -> None:
    """``python -m easybake_spark.plan FILE... [--splits N | --split-bytes B]``:
    prints one ``FILE START-END`` line per split, for GNU parallel, a queue
    or serverless functions (local files only: the size is the file's)."""
    import argparse
    import os

    parser = argparse.ArgumentParser(prog="python -m easybake_spark.plan", description=main.__doc__)
    parser.add_argument("files", nargs="+")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--splits", type=int, help="ranges per file")
    group.add_argument("--split-bytes", type=int, help=f"bytes per range (default {DEFAULT_SPLIT_BYTES})")
    options = parser.parse_args(argv)
    for split in plan([(path, os.path.getsize(path)) for path in options.files], options.splits, options.split_bytes):
        print(split.uri, split.byte_range)


if __name__ == "__main__":
    main()
