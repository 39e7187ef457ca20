"""What the commands print, as a rep and a script read it: tables on stdout with columns that
line up in a terminal (CJK and emoji names included), chatter on stderr, money as the
cockpit writes it, `warmline lead`'s activity as aligned columns with human type names,
and one notice when the lead is shown from the cache offline."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from fastapi import FastAPI

from support.cli_sandbox import open_store, run, serve
from support.store_data import detail_item
from warmline.commands.common import cell_width, money, pad, print_table
from warmline.commands.demo import demo
from warmline.vocabulary import ACTIVITY_NAMES

LEAD_ID = 7
README = Path(__file__).resolve().parents[2] / "README.md"


def lead_line(**extra: object) -> dict[str, object]:
    return {
        "id": LEAD_ID,
        "company_id": 107,
        "company_name": "Nordlys Freight",
        "lead_status": "warm",
        "warming_score": 72,
        "target_score": 80,
        "activity_count": 4,
        **extra,
    }


def touchpoint(tp_id: int, kind: str, points: int, text: str, day: int) -> dict[str, object]:
    return {
        "id": tp_id,
        "lead_id": LEAD_ID,
        "detected_type": kind,
        "bonus_points": points,
        "description": text,
        "created_at": f"2026-11-{day:02d}T10:00:00Z",
    }


@pytest.fixture
def cached_lead(data_dir: Path) -> Path:
    """A data dir whose cache holds one lead's detail: a deal, activities of every width of
    points and of a type with a long name."""
    with open_store(data_dir) as store:
        store.upsert_leads([lead_line()])
        store.upsert_lead_detail(
            {
                **lead_line(),
                "deal_value": 76000.0,
                "deal_currency": "EUR",
                "touchpoints": [
                    touchpoint(1, "call", 16, "Spoke with Dana, wants pricing by Friday", 20),
                    touchpoint(
                        2, "professional_network_message", 6, "Messaged Dana on LinkedIn", 19
                    ),
                    touchpoint(3, "meeting", 120, "Workshop with the whole team", 18),
                    touchpoint(4, "like", 1, "Liked their post", 17),
                ],
            }
        )
    return data_dir


# --- measuring and padding --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("Acme", 4),
        ("東京物流", 8),  # CJK: two cells each
        ("Ｆｕｌｌ", 8),  # full-width Latin
        ("🚀 Rocket", 9),  # an emoji is two cells
        ("Cafe\u0301", 4),  # a combining accent takes none
        ("👩\u200d💻 Dev", 6),  # a ZWJ sequence is drawn as one emoji
        ("Ångström", 8),
        ("", 0),
    ],
)
def test_cell_width_counts_what_the_terminal_draws(text: str, cells: int) -> None:
    assert cell_width(text) == cells


def test_pad_fills_to_a_width_in_cells() -> None:
    assert pad("東京", 6) == "東京  "
    assert pad("+6", 4, right=True) == "  +6"
    assert pad("too long", 3) == "too long"


def test_a_table_keeps_its_columns_in_line_after_cjk_and_emoji_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    print_table(
        ["NAME", "DOMAIN", "SIZE"],
        [
            ["東京物流", "tokyo.example", "51-200"],
            ["🚀 Rocket", "rocket.example", "11-50"],
            ["Plain Co", "plain.example", "1-10"],
        ],
    )
    assert capsys.readouterr().out.splitlines() == [
        "NAME       DOMAIN          SIZE",
        "東京物流   tokyo.example   51-200",
        "🚀 Rocket  rocket.example  11-50",
        "Plain Co   plain.example   1-10",
    ]


def test_companies_list_lines_up_with_cjk_and_emoji_names(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(monkeypatch, None)  # the list is read from the cache
    domains = ["test.example", "rocket.example", "plain.example"]
    with open_store(data_dir) as store:
        store.upsert_companies(
            [
                {
                    "id": 1,
                    "name": "株式会社テスト",
                    "domain": domains[0],
                    "industry": "Software",
                    "tags": [],
                },
                {
                    "id": 2,
                    "name": "🚀 Rocket Labs",
                    "domain": domains[1],
                    "industry": "Space",
                    "tags": [],
                },
                {
                    "id": 3,
                    "name": "Plain Co",
                    "domain": domains[2],
                    "industry": "Retail",
                    "tags": [],
                },
            ]
        )
    result = run("companies")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert len(rows) == 3
    # Where DOMAIN starts, counted in terminal cells, is where each row's domain starts.
    column = cell_width(header[: header.index("DOMAIN")])
    for domain in domains:
        (row,) = [r for r in rows if domain in r]
        assert cell_width(row[: row.index(domain)]) == column, row


# --- money ----------------------------------------------------------------------------------------------


def test_money_is_written_as_the_cockpit_writes_it() -> None:
    assert money(76000.0, "EUR") == "76,000 EUR"
    assert money(1234.5, "USD") == "1,234.50 USD"
    assert money(950, None) == "950"
    assert money(1_250_000, "EUR\x1b[2J") == "1,250,000 EUR"  # the currency is service text


def test_lead_shows_its_deal_value_with_separators(cached_lead: Path) -> None:
    result = run("lead", str(LEAD_ID), "--no-refresh")
    assert result.exit_code == 0, result.output
    assert "Deal: 76,000 EUR" in result.stdout.splitlines()
    assert "76000.0" not in result.stdout


def section(stdout: str, title: str) -> list[str]:
    """The lines of one section of `warmline lead`: after its title, up to a blank line."""
    lines = stdout.splitlines()
    start = lines.index(f"{title}:") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return [line.strip() for line in lines[start:end]]


def test_lead_lists_its_contacts_key_ones_first_and_its_monitoring_sources(data_dir: Path) -> None:
    """The lead page shows who to call and what is watched; `warmline lead` named only the
    pinned contacts ("Key contacts: ...") and no source at all."""
    detail = detail_item(7, lead_status="warm", company_name="Nordlicht Logistik")
    detail["contacts"].append({"id": 600, "first_name": "Jonas", "last_name": "Berg", "title": "CFO",
                               "role": "decision-maker", "email": None, "social_url": None, "is_selected": True})
    with open_store(data_dir) as store:
        store.upsert_lead_detail(detail)
    result = run("lead", "7", "--no-refresh")
    assert result.exit_code == 0, result.output
    assert section(result.stdout, "Contacts") == [
        "Jonas Berg · CFO · decision-maker · key contact",
        "Dana Ruiz · VP Ops · decision-maker · dana@example.com",
    ]
    assert section(result.stdout, "Monitoring sources") == [
        "on    8/10  Company blog (Blog)",
        "off   4/10  Careers (Careers)",
    ]


# --- the lead's activity -------------------------------------------------------------------------------


def activity_lines(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    start = lines.index("Recent activity:") + 1
    return [line for line in lines[start:] if line.startswith("  ")]


def test_lead_activity_names_types_and_aligns_the_points(cached_lead: Path) -> None:
    result = run("lead", str(LEAD_ID), "--no-refresh")
    assert result.exit_code == 0, result.output
    lines = activity_lines(result.stdout)
    assert len(lines) == 4
    assert "professional_network_message" not in result.stdout
    names = [re.match(r"  \d{4}-\d\d-\d\d \d\d:\d\d  (.+?)  ", line) for line in lines]
    assert [m.group(1).strip() for m in names if m] == [
        "Call",
        "LinkedIn message",
        "Meeting",
        "Like",
    ]
    # The points end in the same column on every line, and the texts start in one column.
    ends = {
        line.index(points) + len(points)
        for line, points in zip(lines, ["+16", "+6", "+120", "+1"], strict=True)
    }
    texts = {
        line.index(text)
        for line, text in zip(lines, ["Spoke with", "Messaged", "Workshop", "Liked"], strict=True)
    }
    assert len(ends) == 1 and len(texts) == 1


def test_a_queued_activity_has_no_points_yet_and_says_so(
    cached_lead: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(monkeypatch, None)  # queued offline: not delivered, so no points
    logged = run("log", str(LEAD_ID), "Called Dana from the train")
    assert logged.exit_code == 0, logged.output
    lines = activity_lines(run("lead", str(LEAD_ID), "--no-refresh").stdout)
    assert len(lines) == 5
    queued, *delivered = lines
    assert "(pending) Called Dana from the train" in queued and "+" not in queued
    assert f"  {ACTIVITY_NAMES['call']}  " in queued  # the local guess, by its name
    texts = {
        line.index(text)
        for line, text in zip(
            delivered, ["Spoke with", "Messaged", "Workshop", "Liked"], strict=True
        )
    }
    assert texts == {queued.index("(pending)")}


# --- offline: one notice, on stderr ------------------------------------------------------------------


def test_lead_offline_says_once_on_stderr_that_it_shows_the_cache(
    cached_lead: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(monkeypatch, None)
    shown = run("lead", str(LEAD_ID))
    assert shown.exit_code == 0, shown.output
    assert shown.stderr.count("Showing the cached lead") == 1
    assert (
        "Showing the cached lead" not in shown.stdout
        and "Nordlys Freight (lead 7, warm)" in shown.stdout
    )
    as_json = run("lead", str(LEAD_ID), "--json")
    assert json.loads(as_json.stdout)["lead"]["id"] == LEAD_ID  # stdout is the JSON alone
    assert as_json.stderr.count("Showing the cached lead") == 1


# --- lookup: the table alone on stdout ---------------------------------------------------------------


def test_lookup_prints_the_table_on_stdout_and_its_figures_on_stderr(
    online: Path, sandbox: FastAPI
) -> None:
    result = run("lookup", "--industry", "software", "--limit", "3")
    assert result.exit_code == 0, result.output
    stdout = result.stdout.splitlines()
    assert stdout[0].split()[:2] == ["NAME", "DOMAIN"]
    cached = json.loads(
        run("lookup", "--industry", "software", "--limit", "3", "--cached", "--json").stdout
    )
    assert (
        len(stdout) == 1 + len(cached["companies"]) > 1
    )  # the header and one line a company, nothing else
    assert "total" not in result.stdout and "instant lookup" not in result.stdout
    assert re.search(
        r"^total \d+ · saved 0 · not saved \(plan limit\) 0$", result.stderr, re.MULTILINE
    )
    empty = run("lookup", "--query", "zzzz qqqq xxxx", "--country", "Atlantis")
    assert empty.exit_code == 0, empty.output
    assert empty.stdout == "" and "No companies matched." in empty.stderr


def test_empty_lists_say_so_on_stderr(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serve(monkeypatch, None)
    for command in (["jobs"], ["outbox"], ["leads"]):
        result = run(*command)
        assert result.exit_code == 0, result.output
        assert result.stdout == "" and result.stderr.strip(), command


# --- the README on the demo ---------------------------------------------------------------------------


def test_the_readme_says_the_demo_forgets_its_data_and_names_a_real_option() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert "throws its data away when you quit" in text
    named = set(re.findall(r"`warmline demo (--[a-z-]+)", text))
    options = {
        opt for param in demo.params if isinstance(param, click.Option) for opt in param.opts
    }
    assert named and named <= options
