"""`NamedTuple` for Warmline's records: `typing.NamedTuple`'s class syntax, cheaper to define.

    from warmline.named_tuple import NamedTuple

    class LeadRow(NamedTuple):
        id: int
        company_name: str
        notes: int = 0

Type checkers see `typing.NamedTuple` itself. At run time the class is a tuple subclass
with the same API (fields by name and index, defaults, `_make`, `_replace`, `_asdict`,
`_fields`, `_field_defaults`, `__match_args__`, equality and hashing as tuples, a readable
repr), built without what makes `typing.NamedTuple` slow to define: it checks each
annotation (compiling a string one into a `ForwardRef`), and `collections.namedtuple`
compiles a `__new__` for each class from source. Here `__new__` is one function shared by
all records, and annotations stay as written.

Why: about 60 records are defined before the cockpit's first frame, at over half a million
instructions each with `typing.NamedTuple`; this is the one measure of startup point 4
(`warmline.startup`) that the figure there comes from.
"""

from __future__ import annotations

import typing
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:

    class _Record(tuple):
        """What every record shares; its fields come from the class built on it."""

        __slots__ = ()
        _fields: tuple[str, ...] = ()
        _field_defaults: dict[str, Any] = {}

        def __new__(cls, *args: Any, **named: Any) -> Any:
            if named or len(args) != len(cls._fields):
                args = _arguments(cls, args, named)
            return tuple.__new__(cls, args)

        @classmethod
        def _make(cls, iterable: Any) -> Any:
            record = tuple.__new__(cls, iterable)
            if len(record) != len(cls._fields):
                raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(record)}")
            return record

        def _replace(self, **changes: Any) -> Any:
            record = tuple.__new__(type(self), [changes.pop(name, value) for name, value in zip(self._fields, self, strict=True)])
            if changes:
                raise ValueError(f"Got unexpected field names: {list(changes)!r}")
            return record

        def _asdict(self) -> dict[str, Any]:
            return dict(zip(self._fields, self, strict=True))

        def __getnewargs__(self) -> tuple[Any, ...]:
            return tuple(self)

        def __repr__(self) -> str:
            shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
            return f"{type(self).__name__}({shown})"

    def _arguments(cls: type[_Record], args: tuple[Any, ...], named: dict[str, Any]) -> list[Any]:
        """The values of a call with keywords, defaults or a wrong count, checked as a
        function's arguments are."""
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
        values = list(args)
        for name in fields[len(args):]:
            if name in named:
                values.append(named.pop(name))
            elif name in cls._field_defaults:
                values.append(cls._field_defaults[name])
            else:
                raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
        if named:
            twice = [name for name in named if name in fields]
            what = "got multiple values for argument" if twice else "got an unexpected keyword argument"
            raise TypeError(f"{cls.__name__}() {what} {(twice or list(named))[0]!r}")
        return values

    class _RecordMeta(type):
        """Builds the record class from the class statement's body."""

        def __new__(mcls, name: str, bases: tuple[type, ...], body: dict[str, Any]) -> type:
            fields = tuple(body.get("__annotations__", ()))
            namespace = {key: value for key, value in body.items() if key not in fields}
            namespace.update(
                __slots__=(),
                _fields=fields,
                _field_defaults={name: body[name] for name in fields if name in body},
                __match_args__=fields,
            )
            for index, field in enumerate(fields):
                namespace[field] = property(itemgetter(index), doc=f"Alias for field number {index}")
            return type.__new__(type, name, (_Record,), namespace)

    _Base = type.__new__(_RecordMeta, "NamedTuple", (), {})

    def NamedTuple(typename: str, fields: Any = None, /, **kwargs: Any) -> Any:  # noqa: N802
        """The functional form is typing's own (none of ours use it)."""
        return typing.NamedTuple(typename, fields, **kwargs)

    NamedTuple.__mro_entries__ = lambda bases: (_Base,)
