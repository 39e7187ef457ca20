"""`warmline.named_tuple.NamedTuple` behaves as `typing.NamedTuple` does for everything our
records use: the same class statement, read side by side with typing's."""

from __future__ import annotations

import pickle
import typing
from typing import Any

import pytest

from warmline import named_tuple
from warmline.store.rows import LeadRow, build


def pair() -> tuple[Any, Any]:
    """The same record class, once with each `NamedTuple`."""

    def make(base: Any) -> Any:
        class Card(base):
            """A card."""

            id: int
            title: str
            note: str | None = None
            score: int = 0

            @property
            def label(self) -> str:
                return f"{self.id}: {self.title}"

            def bumped(self, points: int) -> Card:
                return self._replace(score=self.score + points)

        return Card

    return make(typing.NamedTuple), make(named_tuple.NamedTuple)


CALLS = [
    ((1, "a"), {}),
    ((1, "a", "n", 4), {}),
    ((1,), {"title": "a", "score": 2}),
    ((), {"id": 1, "title": "a"}),
    ((), {"title": "a"}),  # missing id
    ((1, "a", "n", 4, 5), {}),  # one too many
    ((1, "a"), {"id": 2}),  # id twice
    ((1, "a"), {"colour": "red"}),  # no such field
]


@pytest.mark.parametrize(("args", "named"), CALLS)
def test_a_call_builds_the_same_record_or_fails_the_same_way(args: tuple[Any, ...], named: dict[str, Any]) -> None:
    typings, ours = pair()
    try:
        expected: Any = typings(*args, **named)
    except TypeError:
        with pytest.raises(TypeError):
            ours(*args, **named)
        return
    got = ours(*args, **named)
    assert got == expected and tuple(got) == tuple(expected)
    assert repr(got) == repr(expected)
    assert got._asdict() == expected._asdict()


def test_the_records_api_is_typings() -> None:
    typings, ours = pair()
    for cls in (typings, ours):
        card = cls(7, "Call Dana")
        assert (card.id, card.title, card.note, card.score) == (7, "Call Dana", None, 0)
        assert card[1] == "Call Dana" and len(card) == 4 and isinstance(card, tuple)
        assert card.label == "7: Call Dana" and card.bumped(3).score == 3
        assert cls._fields == ("id", "title", "note", "score")
        assert cls._field_defaults == {"note": None, "score": 0}
        assert cls.__match_args__ == cls._fields
        assert cls._make([1, "b", None, 2]) == (1, "b", None, 2)
        assert hash(card) == hash((7, "Call Dana", None, 0)) and card == (7, "Call Dana", None, 0)
        assert cls.__doc__ == "A card." and cls.__name__ == "Card"
        assert not hasattr(card, "__dict__")  # slots, as namedtuple
        with pytest.raises(AttributeError):
            card.id = 8  # type: ignore[misc]
        with pytest.raises(ValueError, match="unexpected field names"):
            card._replace(colour="red")
        with pytest.raises(TypeError):
            cls._make([1, "b"])
        match card:
            case cls(number, title):
                assert (number, title) == (7, "Call Dana")


def test_a_subclass_keeps_the_fields_and_adds_behaviour() -> None:
    _, ours = pair()

    class Loud(ours):  # type: ignore[misc, valid-type]
        def shout(self) -> str:
            return self.title.upper()

    loud = Loud(1, "hi")
    assert loud.shout() == "HI" and loud.note is None and loud._replace(title="yo").shout() == "YO"


def test_the_stores_records_are_built_from_rows_as_before() -> None:
    """`store.rows.build` reads `_fields` and `_field_defaults` of a real record."""
    columns = {name: None for name in LeadRow._fields if name not in LeadRow._field_defaults}
    columns.update(id=3, company_name="Kestrel Analytics")
    lead = build(LeadRow, columns)
    assert lead.id == 3 and lead.company_name == "Kestrel Analytics"
    assert lead._replace(company_name="K")._asdict()["company_name"] == "K"
    assert pickle.loads(pickle.dumps(lead)) == lead
