"""One rule for an amount of money, wherever it is shown (`warmline.amounts`)."""

import pytest

from warmline.amounts import amount, typed_amount
from warmline.review.model import Money
from warmline.review.words import money


@pytest.mark.parametrize(
    ("value", "shown"),
    [(76000, "76,000"), (76000.0, "76,000"), (1234.5, "1,234.50"), (0.1, "0.10"), (0, "0"),
     (999.999, "1,000"), (1e12, "1,000,000,000,000")],
)
def test_an_amount_has_cents_only_when_it_has_some(value: float, shown: str) -> None:
    assert amount(value) == shown


def test_the_review_sums_deals_by_the_same_rule() -> None:
    assert money((Money("EUR", 90500.0, 2), Money("USD", 10.5, 1))) == "90,500 EUR + 10.50 USD"


@pytest.mark.parametrize(
    ("typed", "value"),
    [("24000", 24000), ("24,000", 24000), ("24.000", 24000), ("24 000", 24000), ("24\u00a0000", 24000),
     ("24\u202f000", 24000), ("24'000", 24000), ("1,234.50", 1234.5), ("1.234,50", 1234.5), ("24,5", 24.5),
     ("24.5", 24.5), ("24,50", 24.5), ("1,500,000", 1500000), ("1.500.000", 1500000), ("1 500 000,25", 1500000.25),
     ("24k", 24000), ("24 K", 24000), ("1.5m", 1500000), ("2,5k", 2500), ("-5", -5), (" 7 ", 7), ("0", 0),
     ("0.5", 0.5), (".5", 0.5), ("0.500", 0.5), (",500", 0.5)],
)  # fmt: skip
def test_an_amount_is_read_as_a_rep_types_it(typed: str, value: float) -> None:
    """The deal form read "1.234,50" (German for 1,234.50) as 1.2345 and "24,50" as 2450:
    a comma was dropped as a thousands separator wherever it stood."""
    assert typed_amount(typed) == value


@pytest.mark.parametrize(
    "typed",
    ["", " ", "abc", "1,23,456", "1.234.5", "1,234,5", "1,234.567,8", "1.234,567.8", "nan", "inf", "1e3",
     "\u0663", "\uff13", "1_000", "24kk", "k", "EUR 24", "24 EUR", "24.", ",5,", "--5", "1" * 400],
)  # fmt: skip
def test_an_amount_that_cannot_be_read_for_sure_is_none(typed: str) -> None:
    assert typed_amount(typed) is None
