"""The lead page's score-over-time chart: the pure drawing (rows of text from values, no
Textual), then the page showing it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from support.cockpit import cockpit, text_of
from support.waiting import until
from warmline.store import Store
from warmline.tui.charts import ChartStyles, score_chart
from warmline.tui.screens.lead_detail import LeadDetailScreen

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def ago(**delta: float) -> datetime:
    return NOW - timedelta(**delta)


def shown(app) -> bool:
    """The lead page is up, its chart composed."""
    return isinstance(app.screen, LeadDetailScreen) and bool(app.screen.query("#detail-trend"))


CASES = [
    pytest.param(
        [(NOW, 21)],
        80,
        [
            "Score over time  no activity yet",
        ],
        id="no activity: said in words, no empty box",
    ),
    pytest.param(
        [(ago(days=3), 40), (NOW, 40)],
        80,
        [
            "Score over time",
            " 80┤┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄ target 80",
            " 60┤",
            " 40┤██████████████████████████",
            " 20┤██████████████████████████",
            "  0└──────────────────────────",
            "    19 Nov    20 Nov    22 Nov",
        ],
        id="one activity: its score until now, scale up to the target",
    ),
    pytest.param(
        [(ago(hours=6), 60), (ago(hours=4), 66), (ago(hours=2), 72), (ago(hours=1), 84), (NOW, 84)],
        80,
        [
            "Score over time",
            "100┤                     ▂▂▂▂▂",
            " 80┤┄┄┄┄┄┄┄┄▂▂▂▂▂▂▂▂▂▅▅▅▅█████ target 80",
            " 60┤██████████████████████████",
            " 40┤██████████████████████████",
            " 20┤██████████████████████████",
            "  0└──────────────────────────",
            "    22 Nov 03:00         09:00",
        ],
        id="many on one day: clock times, the date once",
    ),
    pytest.param(
        [(ago(days=20), 50), (ago(days=10), 78), (ago(days=5), 95), (NOW, 100)],
        80,
        [
            "Score over time",
            "100┤                   ▆▆▆▆▆▆█",
            " 80┤┄┄┄┄┄┄┄┄┄┄┄┄▇▇▇▇▇▇▇███████ target 80",
            " 60┤▄▄▄▄▄▄▄▄▄▄▄▄██████████████",
            " 40┤██████████████████████████",
            " 20┤██████████████████████████",
            "  0└──────────────────────────",
            "    2 Nov     12 Nov    22 Nov",
        ],
        id="over the target: bars cross the line, scale to 100",
    ),
    pytest.param(
        [(ago(days=6), 5), (ago(days=2), 12), (NOW, 12)],
        None,
        [
            "Score over time",
            " 40┤",
            " 20┤▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▂▅▅▅▅▅▅▅▅▅▅▅▅▅",
            "  0└────────────────────────────────────",
            "    16 Nov         19 Nov         22 Nov",
        ],
        id="no target: no line, the width to the bars",
    ),
    pytest.param(
        [(ago(days=400), 10), (NOW, 50)],
        60,
        [
            "Score over time",
            " 60┤┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄▄ target 60",
            " 40┤                         █",
            " 20┤▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄█",
            "  0└──────────────────────────",
            "    18 Oct '25      22 Nov '26",
        ],
        id="over a new year: years on the dates, the middle one left out when it would touch",
    ),
    pytest.param(
        [(NOW, 30), (NOW, 30)],
        60,
        [
            "Score over time",
            " 60┤┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄ target 60",
            " 40┤▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄",
            " 20┤██████████████████████████",
            "  0└──────────────────────────",
            "    22 Nov 09:00",
        ],
        id="an activity logged this instant: one label",
    ),
]


@pytest.mark.parametrize(("history", "target", "rows"), CASES)
def test_score_chart_rows(
    history: list[tuple[datetime, int]], target: int | None, rows: list[str]
) -> None:
    assert [row.plain for row in score_chart(history, target, UTC, 40)] == rows


def test_dates_are_in_the_reps_zone() -> None:
    # 23:30 UTC is already the next day two hours east
    history = [
        (datetime(2026, 11, 2, 23, 30, tzinfo=UTC), 10),
        (datetime(2026, 11, 22, 23, 30, tzinfo=UTC), 10),
    ]
    assert (
        score_chart(history, 60, timezone(timedelta(hours=2)), 40)[-1].plain
        == "    3 Nov     13 Nov    23 Nov"
    )
    assert score_chart(history, 60, UTC, 40)[-1].plain == "    2 Nov     12 Nov    22 Nov"


def test_the_wording_of_no_activity_is_the_callers() -> None:
    rows = score_chart([], 80, UTC, 40, empty="activity not loaded yet")
    assert [row.plain for row in rows] == ["Score over time  activity not loaded yet"]


@pytest.mark.parametrize("width", [30, 40, 57, 76, 118])
def test_every_row_fits_the_width(width: int) -> None:
    history = [(ago(days=90 - 3 * n), min(100, 4 * n)) for n in range(30)] + [(NOW, 100)]
    rows = score_chart(history, 80, UTC, width)
    assert max(row.cell_len for row in rows) <= width
    assert rows[-1].plain.startswith("    ") and rows[-1].plain.endswith("22 Nov")


def test_colour_says_ready_and_marks_the_target() -> None:
    styles = ChartStyles()
    rows = score_chart([(ago(days=4), 50), (ago(days=2), 90), (NOW, 90)], 80, UTC, 40, styles)
    target_row = next(row for row in rows if "target 80" in row.plain)
    styles_at = {target_row.plain[span.start]: span.style for span in target_row.spans}
    assert styles_at["┄"] == styles.target
    assert styles_at["█"] == styles.ready  # the score is at the target there
    low_row = next(row for row in rows if row.plain.startswith(" 60┤"))
    assert {span.style for span in low_row.spans if low_row.plain[span.start] == "▄"} == {
        styles.bar
    }


@pytest.mark.parametrize(
    ("size", "columns"), [((120, 40), 44), ((80, 24), 60)], ids=["120x40", "80x24"]
)
async def test_the_lead_page_shows_the_chart(
    store: Store, size: tuple[int, int], columns: int
) -> None:
    """Lead 103 (Kestrel): three activities over a week, score 21, target 90."""
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.open_lead(103)
        await until(lambda: shown(app), pilot=pilot, what="the lead page")
        await until(
            lambda: "15 Nov" in text_of(app, "#detail-trend"), pilot=pilot, what="the chart"
        )
        rows = text_of(app, "#detail-trend").splitlines()
        assert rows[0] == "Score over time"
        assert rows[1] == "100┤" + "┄" * columns + " target 90"
        assert [row[:4] for row in rows[1:7]] == ["100┤", " 80┤", " 60┤", " 40┤", " 20┤", "  0└"]
        assert rows[-1].split() == ["15", "Nov", "18", "Nov", "22", "Nov"]
        assert max(len(row) for row in rows) <= app.screen.query_one("#detail-trend").size.width


async def test_a_lead_without_activity_says_so(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(100)  # the first seeded lead has no activity logged
        await until(lambda: shown(app), pilot=pilot, what="the lead page")
        await until(lambda: text_of(app, "#detail-trend") != "", pilot=pilot, what="the chart")
        assert text_of(app, "#detail-trend") == "Score over time  no activity yet"
