"""The review's stacked bar chart as text: one scale for every bar, a fill a series, a
non-zero value never lost, and the width kept."""

from __future__ import annotations

from warmline.tui.widgets.bar_chart import FILLS, Bar, stacked_bars

SERIES = ["Call", "Email", "Like"]


def test_bars_share_one_scale_and_keep_the_width() -> None:
    lines = stacked_bars([Bar("Mon", (4, 2, 0)), Bar("Tue", (0, 0, 0)), Bar("Wed", (1, 0, 2))], SERIES, 40)
    assert [line.cell_len for line in lines[1:]] == [40, 40, 40]
    mon, tue, wed = (line.plain for line in lines[1:])
    assert abs(mon.count(FILLS[0]) - 2 * mon.count(FILLS[1])) <= 1 and FILLS[2] not in mon
    assert mon.rstrip().endswith("6") and tue.rstrip().endswith("0") and wed.rstrip().endswith("3")
    bar = lambda text: sum(text.count(f) for f in FILLS[:3])  # noqa: E731
    assert abs(bar(mon) - 2 * bar(wed)) <= 1 and bar(tue) == 0


def test_a_single_value_keeps_a_cell_beside_a_big_one() -> None:
    _, line = stacked_bars([Bar("Mon", (500, 1, 0))], SERIES, 30)
    assert line.plain.count(FILLS[1]) == 1


def test_the_legend_names_each_series_with_its_fill() -> None:
    legend = stacked_bars([Bar("Mon", (1, 1, 1))], SERIES, 80)[0].plain
    assert all(f"{FILLS[k] * 2} {name}" in legend for k, name in enumerate(SERIES))


def test_nothing_to_draw_is_a_legend_and_empty_rows() -> None:
    lines = stacked_bars([Bar("Mon", ()), Bar("Tue", ())], [], 20)
    assert [line.plain.split() for line in lines] == [[], ["Mon", "0"], ["Tue", "0"]]
