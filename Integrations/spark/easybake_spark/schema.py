"""The DataFrame's schema, from ``easybake schema --recipe R``, and the
conversion of each baked record (one JSON line) to a row of it.

The command types a field from the recipe (its transformer, nested recipe
or default); a field of unknown type is ``json``, any JSON value. Here:

========================  ==========================================
easybake type             Spark type
========================  ==========================================
``string``                ``StringType``
``number``                ``DoubleType``
``boolean``               ``BooleanType``
``timestamp``             ``TimestampType`` (from ISO 8601 text)
``json``                  ``StringType``: a string as itself, any
                          other value as its JSON text
``{"array": T}``          ``ArrayType(T)``
``{"struct": [fields]}``  ``StructType``
========================  ==========================================

Every field is nullable. A value that does not fit its field (text where
a number is expected) is an error naming the field — never a null.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Dict, List

from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    DataType,
    DoubleType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

_SCALARS = {
    "string": StringType(),
    "json": StringType(),
    "number": DoubleType(),
    "boolean": BooleanType(),
    "timestamp": TimestampType(),
}


class RecordError(ValueError):
    """A baked record that does not fit the schema."""


def spark_type(kind: Any) -> DataType:
    """The Spark type of an easybake schema type."""
    if isinstance(kind, str):
        if kind not in _SCALARS:
            raise ValueError(f"unknown easybake schema type {kind!r}")
        return _SCALARS[kind]
    if isinstance(kind, dict) and "array" in kind:
        return ArrayType(spark_type(kind["array"]), containsNull=True)
    if isinstance(kind, dict) and "struct" in kind:
        return struct_type(kind["struct"])
    raise ValueError(f"unknown easybake schema type {kind!r}")


def struct_type(fields: List[Dict[str, Any]]) -> StructType:
    """The ``StructType`` of an easybake schema's ``fields``."""
    return StructType([StructField(field["name"], spark_type(field["type"]), nullable=True) for field in fields])


class RowMaker:
    """Turns the records ``easybake bake`` prints into rows of a schema's
    ``StructType``, in the schema's field order."""

    def __init__(self, schema: Dict[str, Any]):
        self.fields = schema["fields"]
        self.struct = struct_type(self.fields)

    def row(self, record: Dict[str, Any]) -> tuple:
        """The row of one record (a decoded JSON line)."""
        return self._struct(self.fields, record, "")

    def _struct(self, fields: List[Dict[str, Any]], record: Any, path: str) -> tuple:
        if not isinstance(record, dict):
            raise RecordError(f"{path or 'the record'}: expected a dictionary, found {_brief(record)}")
        known = {field["name"] for field in fields}
        extra = [key for key in record if key not in known]
        if extra:
            # A key the schema does not know would be dropped: say so.
            raise RecordError(f"{path or 'the record'}: {', '.join(map(repr, extra))} not in the recipe's schema")
        return tuple(
            self._value(field["type"], record.get(field["name"]), f"{path}.{field['name']}" if path else field["name"])
            for field in fields
        )

    def _value(self, kind: Any, value: Any, path: str) -> Any:
        if value is None:
            return None
        if kind == "string" or kind == "json":
            return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if kind == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise RecordError(f"{path}: expected a number, found {_brief(value)}")
            return float(value)
        if kind == "boolean":
            if not isinstance(value, bool):
                raise RecordError(f"{path}: expected a boolean, found {_brief(value)}")
            return value
        if kind == "timestamp":
            if not isinstance(value, str):
                raise RecordError(f"{path}: expected an ISO 8601 timestamp, found {_brief(value)}")
            try:
                return datetime.fromisoformat(value)
            except ValueError:
                raise RecordError(f"{path}: expected an ISO 8601 timestamp, found {_brief(value)}") from None
        if isinstance(kind, dict) and "array" in kind:
            if not isinstance(value, list):
                raise RecordError(f"{path}: expected an array, found {_brief(value)}")
            return [self._value(kind["array"], element, f"{path}[{index}]") for index, element in enumerate(value)]
        if isinstance(kind, dict) and "struct" in kind:
            return self._struct(kind["struct"], value, path)
        raise RecordError(f"{path}: unknown easybake schema type {kind!r}")


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
