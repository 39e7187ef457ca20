"""How an amount of money reads, wherever it is shown: the lead page, the command line, the
week in review (screen, Markdown, HTML).

Thousands separated, cents only when there are some: `76,000`, `1,234.50`. The lead page
had rounded the cents away (1,234.50 read 1,235) while the review always wrote them
(90,500.00); one rule now. And how one reads as the rep types it (`typed_amount`).
"""

import math
import re

from warmline.numbers import MAX_DIGITS


def amount(value: float) -> str:
    """`76,000` for a whole amount, `1,234.50` with cents (to the cent)."""
    return f"{value:,.0f}" if round(float(value), 2).is_integer() else f"{value:,.2f}"


AMOUNT_EXAMPLES = "24000, 24,000.50 or 24k"
"""What an error about a typed amount offers as examples of what reads."""
_SPACES = str.maketrans("", "", " \u00a0\u202f\u2009'\u2019")
"""Group separators a rep may type besides `,` and `.`: spaces (plain, no-break, thin) and
the Swiss apostrophe."""
_TYPED = re.compile(r"(?P<sign>-?)(?P<number>[0-9.,]*[0-9])(?P<unit>[kKmM]?)")
_UNITS = {"": 1, "k": 1_000, "m": 1_000_000}


def typed_amount(text: str) -> float | None:
    """An amount of money as a rep types it, or None when it cannot be read for sure.

    `,` and `.` each serve as the decimal or the thousands separator, as in English and in
    German: `1,234.50` and `1.234,50` are the same amount. With both, the last one is the
    decimal point. A lone one before exactly three digits groups thousands (`24.000` is
    24,000: no deal has a tenth of a cent), before one or two it is the decimal point
    (`24,50`), as it is after a zero (`0.500`); twice or more it groups thousands, and
    every group must then have three digits. Spaces and `'` group too; `k` and `m`
    multiply (`24k`, `1.5m`). ASCII digits only (`warmline.numbers`). The old form dropped
    every comma: `24,50` was 2,450 and `1.234,50` was 1.2345."""
    found = _TYPED.fullmatch(text.strip().translate(_SPACES))
    if found is None or len(text) > MAX_DIGITS:
        return None
    number, unit = found["number"], found["unit"].lower()
    marks = [c for c in number if c in ",."]
    if len(set(marks)) == 2:
        point = marks[-1]
        if marks.count(point) > 1:
            return None
    elif len(marks) == 1:
        decimals = len(number) - number.index(marks[0]) - 1
        point = marks[0] if unit or decimals != 3 or number.startswith(("0", ",", ".")) else ""
    else:
        point = ""
    whole, _, fraction = number.partition(point) if point else (number, "", "")
    groups = whole.replace(",", ".").split(".")
    if len(groups) > 1 and (not 1 <= len(groups[0]) <= 3 or any(len(g) != 3 for g in groups[1:])):
        return None
    if fraction and not fraction.isdigit():
        return None
    value = float(f"{found['sign']}{''.join(groups) or '0'}.{fraction or '0'}") * _UNITS[unit]
    return value if math.isfinite(value) else None
