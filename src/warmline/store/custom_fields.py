"""Custom fields as a page shows them: each value with the schema's name for it, in the
schema's order, then any key the schema does not list (alphabetically).

Shared by the read models of the company, contact and research-results pages, so that a
field reads the same wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warmline.store.values import JsonValue

if TYPE_CHECKING:
    from warmline.store import Store


@dataclass(frozen=True)
class FieldSchema:
    """One custom field the service defines for companies or contacts."""

    key: str
    name: str | None
    type: str | None

    @property
    def label(self) -> str:
        return self.name or self.key


@dataclass(frozen=True)
class FieldValue:
    """A record's value of one custom field, with the label the rep knows it by."""

    key: str
    label: str
    value: JsonValue


def field_schema(store: Store, entity: str) -> tuple[FieldSchema, ...]:
    """The cached custom field schema of `companies` or `contacts`, in the service's order."""
    return schema_of(store.field_schemas(entity))


def schema_of(fields: Iterable[Mapping[str, object]]) -> tuple[FieldSchema, ...]:
    """Field definitions as the service gives them (`key`, `name`, `type`: a custom field
    schema's, a research template's data points); one without a key is skipped."""
    return tuple(
        FieldSchema(str(f["key"]), None if f.get("name") is None else str(f["name"]),
                    None if f.get("type") is None else str(f["type"]))
        for f in fields if f.get("key") is not None
    )


def labelled_fields(values: Mapping[str, JsonValue], schema: Sequence[FieldSchema]) -> tuple[FieldValue, ...]:
    """`values` by the schema's names and order, then the keys it does not list, sorted."""
    labels = {f.key: f.label for f in schema}
    keys = [f.key for f in schema if f.key in values] + sorted(k for k in values if k not in labels)
    return tuple(FieldValue(key, labels.get(key, key), values[key]) for key in keys)


def text_of(value: object) -> str:
    """A service value as text, as the screens and the command line print it (None: empty)."""
    return "" if value is None else str(value)


def optional_text(value: object) -> str | None:
    """A service value that may be missing, as text."""
    return None if value is None else str(value)


def optional_id(value: object) -> int | None:
    """A service id: an integer, else none (a bool or text is not an id)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
