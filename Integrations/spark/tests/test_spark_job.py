"""EasyBake on a real Spark in local mode (issue 32, item 3): a JSON array
of about 50 MB, JSON Lines and a YAML stream, baked with 4 splits on
``local[2]``, give the rows one ``easybake bake`` of the whole file gives, in
order; a malformed record fails the job with the file, the split's byte
range and the record's line.

The ``easybake`` binary is ``$EASYBAKE``, or the release build
(``swift build -c release --product easybake``).
"""

import json
import os
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
sys.path.insert(0, os.path.dirname(__file__))

import generate  # noqa: E402
from easybake_spark import EasyBakeTaskError, RecordError, RowMaker, bake, plan, ranges, recipe_schema  # noqa: E402

EASYBAKE = os.environ.get("EASYBAKE") or os.path.join(generate.ROOT, ".build", "release", "easybake")
RECIPE = generate.RECIPE
SPLITS = 4


@pytest.fixture(scope="session")
def spark():
    # Timestamps come back as the local time of the Python workers: UTC,
    # as the single bake's rows are compared in.
    os.environ["TZ"] = "UTC"
    time.tzset()
    # Local mode talks to itself on loopback only, whatever the host name
    # resolves to (Spark would otherwise bind to the first interface).
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]").appName("easybake-test")
        .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def inputs(tmp_path_factory):
    assert os.path.exists(EASYBAKE), f"no easybake binary at {EASYBAKE}: build it, or name one with EASYBAKE"
    folder = tmp_path_factory.mktemp("inputs")
    made = {}
    for kind, write, size in [
        ("json", generate.write_json_array, 50_000_000),
        ("jsonl", generate.write_json_lines, 10_000_000),
        ("yaml", generate.write_yaml_stream, 5_000_000),
    ]:
        path = str(folder / f"users.{kind}")
        made[kind] = (path, write(path, size))
    return made


def single_bake(path):
    """The records of one ``easybake bake`` of the whole file (every
    document of a YAML stream)."""
    documents = ["--documents", "all"] if path.endswith(".yaml") else []
    result = subprocess.run([EASYBAKE, "bake", "--recipe", RECIPE, "--each", "[*]"] + documents + [path], capture_output=True)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode().splitlines()


def as_spark_rows(maker, lines):
    """The rows Spark gives back for these records (timestamps and all)."""
    return [maker.struct.fromInternal(maker.struct.toInternal(maker.row(json.loads(line)))) for line in lines]


def failure(frame):
    """The text of the error collecting ``frame`` fails with."""
    with pytest.raises(Exception) as caught:
        frame.collect()
    return str(caught.value)


@pytest.mark.parametrize("kind", ["json", "jsonl", "yaml"])
def test_rows_equal_the_single_process_bake_in_order(spark, inputs, kind):
    path, count = inputs[kind]
    frame = bake(spark, [path], RECIPE, "[*]", easybake=EASYBAKE, splits=SPLITS)
    partitions = frame.rdd.glom().collect()
    assert len(partitions) == SPLITS
    # Every split holds records: the ranges really divide the file.
    assert all(len(rows) > 0 for rows in partitions), [len(rows) for rows in partitions]
    rows = [row for rows in partitions for row in rows]
    baked = single_bake(path)
    assert len(baked) == count
    assert len(rows) == count
    assert rows == as_spark_rows(RowMaker(recipe_schema(EASYBAKE, RECIPE)), baked)
    assert [field.name for field in frame.schema.fields][:4] == ["id", "name", "email", "unreadMessages"]
    assert frame.schema["lastSeen"].dataType.typeName() == "timestamp"


def test_inputs_fetched_by_spark_bake_as_local_files_do(spark, inputs):
    path, count = inputs["jsonl"]
    frame = bake(spark, ["file://" + path], RECIPE, "[*]", easybake=EASYBAKE, splits=3, ship_inputs=True)
    assert frame.count() == count


def broken_copy(tmp_path, name, lines, index, edit):
    """``lines`` written to ``name`` with line ``index`` (from 0) edited;
    returns the path, and the byte range of the split that holds it."""
    lines = list(lines)
    lines[index] = edit(lines[index])
    path = str(tmp_path / name)
    with open(path, "w", encoding="utf-8") as file:
        file.write("".join(lines))
    start_of_line = sum(len(line.encode()) for line in lines[:index])
    size = os.path.getsize(path)
    start, end = next((s, e) for s, e in ranges(size, SPLITS) if s <= start_of_line < e)
    return path, f"bytes {start}-{end}"


def test_a_malformed_json_line_fails_the_job_with_its_position(spark, tmp_path):
    users = generate.users()
    lines = [json.dumps(next(users)) + "\n" for _ in range(2000)]
    path, byte_range = broken_copy(tmp_path, "broken.jsonl", lines, 1499, lambda line: line.replace('"full_name": ', '"full_name" ', 1))
    text = failure(bake(spark, [path], RECIPE, "[*]", easybake=EASYBAKE, splits=SPLITS))
    assert "EasyBakeTaskError" in text
    assert f"easybake failed on {path} {byte_range}" in text
    assert f"{path}:1500:" in text


def test_a_record_that_does_not_bake_fails_the_job_with_its_position(spark, tmp_path):
    users = generate.users()
    lines = ["[\n"] + [json.dumps(next(users)) + ",\n" for _ in range(1999)] + [json.dumps(next(users)) + "\n", "]\n"]
    # Element 700 is on line 702: its count of unread messages is no number.
    path, byte_range = broken_copy(
        tmp_path, "broken.json", lines, 701, lambda line: line.replace('"unread-messages": ', '"unread-messages": "lots", "x": ', 1))
    text = failure(bake(spark, [path], RECIPE, "[*]", easybake=EASYBAKE, splits=SPLITS))
    assert f"easybake failed on {path} {byte_range}" in text
    assert "unreadMessages" in text
    assert f"{path}:702:" in text


def test_a_malformed_yaml_document_fails_the_job_with_its_position(spark, tmp_path):
    stream = str(tmp_path / "stream.yaml")
    generate.write_yaml_stream(stream, 200_000)
    with open(stream, encoding="utf-8") as file:
        lines = file.readlines()
    index = int(len(lines) * 0.8)
    while not lines[index].startswith('"full_name"'):
        index += 1
    path, byte_range = broken_copy(tmp_path, "broken.yaml", lines, index, lambda line: "  " + line.replace(": ", ": [", 1))
    text = failure(bake(spark, [path], RECIPE, "[*]", easybake=EASYBAKE, splits=SPLITS))
    assert f"easybake failed on {path} {byte_range}" in text
    assert f"{path}:{index + 1}:" in text


def test_the_plan_partitions_every_file():
    splits = plan([("a.json", 10), ("b.jsonl", 0), ("c.yaml", 300)], split_bytes=128)
    assert [(s.uri, s.start, s.end, s.index, s.count) for s in splits] == [
        ("a.json", 0, 10, 0, 1), ("b.jsonl", 0, 0, 0, 1),
        ("c.yaml", 0, 100, 0, 3), ("c.yaml", 100, 200, 1, 3), ("c.yaml", 200, 300, 2, 3),
    ]
    assert [s.byte_range for s in plan([("x", 7)], splits=3)] == ["0-2", "2-4", "4-7"]
    with pytest.raises(ValueError):
        plan([("x", 7)], splits=2, split_bytes=3)


def test_a_value_that_does_not_fit_its_column_is_an_error_not_a_null():
    maker = RowMaker(recipe_schema(EASYBAKE, RECIPE))
    with pytest.raises(RecordError, match="unreadMessages: expected a number, found \"12\""):
        maker.row({"unreadMessages": "12"})
    with pytest.raises(RecordError, match="'surprise' not in the recipe's schema"):
        maker.row({"surprise": 1})
    row = maker.row({"id": 7, "name": "Ada", "deviceKinds": ["phone", {"k": 1}]})
    assert row[0] == "7" and row[1] == "Ada" and row[-1] == ["phone", '{"k":1}']
