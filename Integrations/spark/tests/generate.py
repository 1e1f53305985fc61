"""Generated inputs for the Spark test and the scaling measurement: the
shipped users (Fixtures/jsonl/users.jsonl), varied and repeated to a size,
as a JSON array, JSON Lines and a YAML stream."""

import json
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
USERS = os.path.join(ROOT, "Fixtures", "jsonl", "users.jsonl")
RECIPE = os.path.join(ROOT, "Fixtures", "recipes", "users.json")


def users():
    """Endless varied users: the shipped three, with ids, names and counts
    that differ from record to record."""
    with open(USERS, encoding="utf-8") as file:
        shipped = [json.loads(line) for line in file if line.strip()]
    index = 0
    while True:
        user = dict(shipped[index % len(shipped)])
        user["user_id"] = 1000 + index
        user["full_name"] = f"{user['full_name']} {index}"
        user["unread-messages"] = str(index % 97) if index % 2 else index % 89
        user["last_seen"] = 1763625600 + index * 60
        yield user
        index += 1


def _write(path, size, render, prologue="", epilogue=""):
    """Writes ``render(index, user)`` for users until about ``size`` bytes,
    between ``prologue`` and ``epilogue``. Returns the record count."""
    count = 0
    written = len(prologue)
    with open(path, "w", encoding="utf-8") as file:
        file.write(prologue)
        for user in users():
            text = render(count, user)
            file.write(text)
            written += len(text)
            count += 1
            if written >= size:
                break
        file.write(epilogue)
    return count


def write_json_array(path, size):
    """A top-level array of about ``size`` bytes: one element per line, every
    tenth pretty-printed over several lines. Returns the record count."""
    return _write(
        path, size,
        lambda index, user: ("" if index == 0 else ",\n") + (json.dumps(user, indent=2) if index % 10 == 9 else json.dumps(user)),
        prologue="[\n", epilogue="\n]\n")


def write_json_lines(path, size):
    """JSON Lines of about ``size`` bytes. Returns the record count."""
    return _write(path, size, lambda index, user: json.dumps(user) + "\n")


def _yaml(value, indent):
    """Block YAML lines for a dictionary or array, scalars as JSON writes
    them (a JSON string is a YAML double-quoted scalar)."""
    pad = " " * indent
    lines = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}{json.dumps(key)}:")
                lines += _yaml(item, indent + 2)
            else:
                lines.append(f"{pad}{json.dumps(key)}: {_scalar(item)}")
    else:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                inner = _yaml(item, indent + 2)
                lines.append(f"{pad}- {inner[0].lstrip()}")
                lines += inner[1:]
            else:
                lines.append(f"{pad}- {_scalar(item)}")
    return lines


def _scalar(value):
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return json.dumps(value)


def write_yaml_stream(path, size):
    """A YAML stream of about ``size`` bytes, one user per document, with
    comments, and now and then a document end and a directive. Returns the
    record count."""
    return _write(
        path, size,
        lambda index, user: ("...\n%YAML 1.2\n---\n" if index % 50 == 49 else "---\n") + "\n".join(_yaml(user, 0)) + "\n",
        prologue="# generated users, one per document\n")
