"""One rule for an amount of money, wherever it is shown (`warmline.amounts`)."""

import pytest

from warmline.amounts import amount
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
