"""EasyBake on Apache Spark: bake byte-range splits of JSON Lines, JSON
arrays and YAML streams in Spark tasks, one ``easybake bake --byte-range``
process per split, into a DataFrame typed by the recipe.

>>> from easybake_spark import bake
>>> users = bake(spark, ["users.json"], "users.recipe.json", "[*]", easybake="/opt/easybake", splits=4)
>>> users.write.parquet("users.parquet")

The split plan (:mod:`easybake_spark.plan`) needs no Spark: the Spark
parts are imported when first used.
"""

from .plan import DEFAULT_SPLIT_BYTES, Split, command, plan, ranges

_SPARK = {
    "RecordError": "schema", "RowMaker": "schema", "spark_type": "schema", "struct_type": "schema",
    "EasyBakeTaskError": "job", "bake": "job", "recipe_schema": "job",
}

__all__ = ["DEFAULT_SPLIT_BYTES", "Split", "command", "plan", "ranges"] + sorted(_SPARK)


def __getattr__(name):
    if name in _SPARK:
        import importlib

        return getattr(importlib.import_module(f".{_SPARK[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
