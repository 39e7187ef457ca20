"""`warmline search QUERY [--kind] [--limit] [--json]`: the cache searched offline, grouped
by kind; nothing found is said on stderr (exit 0, `[]` with --json)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from support.cli_sandbox import open_store, run
from warmline.store.followups import FollowUps

HOSTILE_NAME = "\x1b[2J[bold]Acme[/] Ltd"


@pytest.fixture
def desk(offline: Path) -> Path:
    """Two leads with a note and an activity each, a contact and a follow-up; no service."""
    with open_store(offline) as store:
        store.upsert_leads(
            [{"id": 1, "company_name": "Nordlys Freight"}, {"id": 2, "company_name": HOSTILE_NAME}]
        )
        store.upsert_notes(
            1,
            [{"id": 11, "content": "CFO asked about SOC 2", "created_at": "2026-11-20T09:00:00Z"}],
        )
        store.upsert_notes(
            2,
            [
                {
                    "id": 12,
                    "content": "Acme wants a SOC 2 report",
                    "created_at": "2026-11-21T09:00:00Z",
                }
            ],
        )
        store.upsert_contacts(
            [{"id": 31, "first_name": "Dana", "last_name": "Ruiz", "title": "Head of Security"}]
        )
    with FollowUps(offline) as followups:
        followups.add(1, "Nordlys Freight", "Send the SOC 2 summary", date(2026, 11, 27))
    return offline


def searched(*args: str) -> list[dict[str, object]]:
    result = run("search", *args, "--json")
    assert result.exit_code == 0, result.output
    listed: list[dict[str, object]] = json.loads(result.stdout)
    return listed


def test_json_lists_every_kind_found_with_what_to_open(desk: Path) -> None:
    hits = searched("soc")
    assert [(h["kind"], h["opens"], h["open_id"]) for h in hits] == [
        ("followup", "lead", 1),
        ("note", "lead", 1),  # the shorter note ranks first (bm25)
        ("note", "lead", 2),
    ]
    first = hits[0]
    assert first["snippet"] == "Send the SOC 2 summary" and first["snippet_matches"] == [[9, 12]]
    assert set(first) == {"kind", "id", "rank", "title", "title_matches", "snippet", "snippet_matches",
                          "detail", "opens", "open_id"}  # fmt: skip


def test_kind_keeps_one_kind_as_the_query_filter_does(desk: Path) -> None:
    assert {h["kind"] for h in searched("soc", "--kind", "note")} == {"note"}
    assert {h["kind"] for h in searched("soc kind:followup")} == {"followup"}
    assert [h["kind"] for h in searched("security", "--kind", "contact")] == ["contact"]


def test_plain_output_is_grouped_and_safe(desk: Path) -> None:
    result = run("search", "soc", "report")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "Notes (1)",
        "  [bold]Acme[/] Ltd · 2026-11-21 · lead 2",
        "      Acme wants a SOC 2 report",
    ]


def test_nothing_found_exits_0_and_says_so(desk: Path) -> None:
    result = run("search", "zeppelin")
    assert (result.exit_code, result.stdout) == (0, "")
    assert "Nothing found for 'zeppelin'" in result.stderr
    assert searched("zeppelin") == []


def test_an_unknown_kind_is_bad_input(desk: Path) -> None:
    result = run("search", "soc", "--kind", "planet")
    assert result.exit_code == 2
    assert "Invalid value for '--kind'" in result.output


@pytest.mark.parametrize(
    "query", ['"', "NEAR(", "*", "soc OR", "x" * 10_000, "\x1b]0;pwned\x07", "kind:planet soc"]
)
def test_hostile_queries_find_or_find_nothing(desk: Path, query: str) -> None:
    result = run("search", query)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
