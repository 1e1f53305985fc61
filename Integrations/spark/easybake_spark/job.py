"""The Spark job: bakes the splits of the inputs in Spark tasks, one
``easybake bake --byte-range`` process per split, and returns the records
as a DataFrame typed by the recipe's schema."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence, Tuple
from urllib.parse import urlparse

import importlib

planning = importlib.import_module(__package__ + ".plan")
from .schema import RecordError, RowMaker


class EasyBakeTaskError(RuntimeError):
    """A split that did not bake: the file, its byte range, and easybake's
    error (with the record's line and column) or the record at fault."""


def recipe_schema(easybake: str, recipe: str, recipe_name: Optional[str] = None) -> dict:
    """``easybake schema --recipe R``, decoded."""
    arguments = [easybake, "schema", "--recipe", recipe] + (["--recipe-name", recipe_name] if recipe_name else [])
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode != 0:
        raise EasyBakeTaskError(f"easybake schema failed for {recipe}:\n{result.stderr.strip()}")
    return json.loads(result.stdout)


def local_path(uri: str) -> Optional[str]:
    """The path of a local file (a path, or a ``file:`` URI); ``None`` for
    any other URI, which Spark fetches."""
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        return parsed.path
    if parsed.scheme == "" or (len(parsed.scheme) == 1 and os.name == "nt"):
        return uri
    return None


def file_size(spark, uri: str) -> int:
    """The size of ``uri``: from the file system for a local file, through
    Hadoop's ``FileSystem`` (the one Spark reads ``s3a://``, ``hdfs://``,
    ``gs://``... with) for any other URI."""
    path = local_path(uri)
    if path is not None:
        return os.path.getsize(path)
    jvm = spark.sparkContext._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path(uri)
    file_system = hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    return file_system.getFileStatus(hadoop_path).getLen()


@dataclass(frozen=True)
class _Task:
    """What every task needs, shipped with its closure."""

    easybake: str
    recipe: str
    each: str
    recipe_name: Optional[str]
    input_format: Optional[str]
    jobs: int
    extra: Tuple[str, ...]
    schema: dict

    def run(self, splits: Iterator[Tuple[planning.Split, Optional[str], Optional[str]]]) -> Iterator[tuple]:
        from pyspark import SparkFiles

        binary = SparkFiles.get(self.easybake)
        mode = os.stat(binary).st_mode
        if not mode & stat.S_IXUSR:
            os.chmod(binary, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        recipe = SparkFiles.get(self.recipe)
        maker = RowMaker(self.schema)
        for split, path, shipped in splits:
            yield from self._bake(split, path or SparkFiles.get(shipped), binary, recipe, maker)

    def _bake(self, split: planning.Split, path: str, binary: str, recipe: str, maker: RowMaker) -> Iterator[tuple]:
        arguments = planning.command(
            split, path, recipe, self.each, easybake=binary, recipe_name=self.recipe_name,
            input_format=self.input_format, jobs=self.jobs, extra=self.extra)
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=errors)
            count = 0
            try:
                for line in process.stdout:
                    if not line.endswith(b"\n"):
                        raise EasyBakeTaskError(f"{split.describe()}: record [{count}] of the split is cut short")
                    try:
                        record = json.loads(line)
                    except ValueError as error:
                        raise EasyBakeTaskError(f"{split.describe()}: record [{count}] of the split is no JSON line: {error}") from None
                    try:
                        row = maker.row(record)
                    except RecordError as error:
                        raise EasyBakeTaskError(f"{split.describe()}: record [{count}] of the split: {error}") from None
                    count += 1
                    yield row
                status = process.wait()
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            if status != 0:
                errors.seek(0)
                message = errors.read().decode("utf-8", "replace").strip()
                raise EasyBakeTaskError(f"easybake failed on {split.describe()} (exit {status}):\n{message}")


def ship_package(context) -> None:
    """Makes this package importable in the executors' Python workers (the
    tasks' code refers to it): zipped once per ``SparkContext`` and added
    with ``addPyFile``, unless ``spark-submit --py-files`` shipped it."""
    if getattr(context, "_easybake_spark_shipped", False):
        return
    package = os.path.dirname(os.path.abspath(__file__))
    archive = os.path.join(tempfile.mkdtemp(prefix="easybake-spark-"), "easybake_spark.zip")
    with zipfile.ZipFile(archive, "w") as zipped:
        for name in sorted(os.listdir(package)):
            if name.endswith(".py"):
                zipped.write(os.path.join(package, name), f"easybake_spark/{name}")
    context.addPyFile(archive)
    context._easybake_spark_shipped = True


def bake(
    spark,
    inputs: Sequence[str],
    recipe: str,
    each: str,
    *,
    easybake: Optional[str] = None,
    splits: Optional[int] = None,
    split_bytes: Optional[int] = None,
    recipe_name: Optional[str] = None,
    input_format: Optional[str] = None,
    jobs: int = 1,
    ship_inputs: bool = False,
    extra: Sequence[str] = (),
):
    """Bakes the records at ``each`` of every input with ``recipe``, one
    Spark task per byte-range split, and returns them as a DataFrame whose
    schema comes from the recipe (``easybake schema``), rows in file order.

    - ``inputs``: JSON Lines files, top-level JSON arrays or YAML streams;
      local paths (which every executor must be able to open: a shared or
      mounted file system, or local mode) or any URI Spark reads, which
      Spark fetches to every executor (``SparkContext.addFile``). With
      ``ship_inputs`` local files are fetched that way too.
    - ``splits`` ranges per file, or one per ``split_bytes`` (default
      128 MB), each a partition of the DataFrame.
    - ``easybake``: the binary on the driver (default: ``easybake`` on the
      ``PATH``), shipped to the executors with the recipe file.
    - ``jobs``: ``easybake --jobs`` in each task; 1 by default, as Spark
      runs one task per core.

    A split that fails fails its task, and the job, with an
    :class:`EasyBakeTaskError` naming the file, the byte range, and
    easybake's error with the record's line and column; no record is
    dropped.
    """
    binary = easybake or shutil.which("easybake")
    if not binary or not os.path.exists(binary):
        raise FileNotFoundError(f"no easybake binary at {easybake or 'easybake on the PATH'}")
    schema = recipe_schema(binary, recipe, recipe_name)
    context = spark.sparkContext
    ship_package(context)
    context.addFile(os.path.abspath(binary))
    context.addFile(os.path.abspath(recipe))
    sized: List[Tuple[str, int]] = [(uri, file_size(spark, uri)) for uri in inputs]
    planned = planning.plan(sized, splits=splits, split_bytes=split_bytes)
    where = {}
    for uri in inputs:
        path = local_path(uri)
        if path is not None and not ship_inputs:
            where[uri] = (os.path.abspath(path), None)
        else:
            context.addFile(uri)
            where[uri] = (None, os.path.basename(urlparse(uri).path or uri))
    task = _Task(
        easybake=os.path.basename(binary), recipe=os.path.basename(recipe), each=each, recipe_name=recipe_name,
        input_format=input_format, jobs=jobs, extra=tuple(extra), schema=schema)
    work = [(split,) + where[split.uri] for split in planned]
    rows = context.parallelize(work, max(1, len(work))).mapPartitions(task.run)
    return spark.createDataFrame(rows, RowMaker(schema).struct)
