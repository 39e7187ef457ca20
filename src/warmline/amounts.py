"""How an amount of money reads, wherever it is shown: the lead page, the command line, the
week in review (screen, Markdown, HTML).

Thousands separated, cents only when there are some: `76,000`, `1,234.50`. The lead page
had rounded the cents away (1,234.50 read 1,235) while the review always wrote them
(90,500.00); one rule now.
"""


def amount(value: float) -> str:
    """`76,000` for a whole amount, `1,234.50` with cents (to the cent)."""
    return f"{value:,.0f}" if round(float(value), 2).is_integer() else f"{value:,.2f}"
