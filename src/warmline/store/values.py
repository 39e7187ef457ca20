"""The types of the values the store reads and writes: SQLite's, and the service's JSON.

SQLite hands back five kinds of value, and which one a column holds is fixed by the schema
(`warmline.store.schema`), which a type checker cannot read. `column` and `nullable` are
where the code states what the schema guarantees for one value: the store's only casts,
so that a wrong claim about a column has one place to be looked for. Whole rows become
typed records through `rows.build`, which trusts the same way.

JSON is typed as far as the store itself reads it. What it keeps whole and hands on (a
lead's snapshot, an op's payload and answer, a job's raw answer) is a `JsonObject`: its
values are whatever the service sent, checked by whoever reads them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, cast

T = TypeVar("T")

SqlValue = int | float | str | bytes | None
"""A value SQLite binds or returns: INTEGER, REAL, TEXT, BLOB or NULL."""
SqlParams = Sequence[SqlValue] | Mapping[str, SqlValue]
"""The parameters of a statement, by position or by name."""
SqlRow = dict[str, SqlValue]
"""A row by column name: as `Database.rows` reads it, or as `writers.upsert` writes it."""

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
"""A value as JSON holds it (custom fields hold text, numbers, yes/no, dates, lists)."""
JsonObject = dict[str, Any]
"""A JSON object the store keeps or hands on whole: the service's answer, a snapshot, a
payload. Its values are read with checks, as the service may send anything."""
JsonMap = Mapping[str, Any]
"""A JSON object given to the store (a model's dump, an answer, an action's payload)."""


def column(value: SqlValue, kind: type[T]) -> T:
    """`value` as the `kind` its column holds by the schema (NOT NULL, or an aggregate that
    is never NULL, like count(*))."""
    return cast(T, value)


def nullable(value: SqlValue, kind: type[T]) -> T | None:
    """`value` as the `kind` its column holds by the schema, or None (NULL)."""
    return cast("T | None", value)
