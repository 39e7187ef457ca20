"""Dialects of the sandbox: the catalogue, parsing a `--dialect` list, and the option itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from warmline.commands.sandbox import sandbox
from warmline.exit_codes import EXIT_BAD_INPUT
from warmline_sandbox.app import create_app
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.dialect_middleware import DialectMiddleware
from warmline_sandbox.dialect_ops import OPERATIONS, find_operation, routed
from warmline_sandbox.dialects import ALL_DIALECTS, DIALECTS, DialectError, parse_dialects
from warmline_sandbox.settings import SandboxSettings

NAMES = [
    "standard", "page-limit", "offset", "cursor", "link", "bare", "sparse", "words", "names", "errors",
    "overview-only", "detailed-only", "cold-default", "request-names",
]


def test_the_catalogue_names_every_dialect_in_one_line_each() -> None:
    assert list(DIALECTS) == NAMES
    assert all(description and "\n" not in description for description in DIALECTS.values())


def test_a_list_is_put_in_catalogue_order_once_each() -> None:
    assert parse_dialects(" words, OFFSET ,words,sparse") == ("offset", "sparse", "words")
    assert parse_dialects("standard") == ()


def test_all_is_every_variation_of_the_answers() -> None:
    assert parse_dialects("all") == ALL_DIALECTS
    assert set(ALL_DIALECTS) == {"cursor", "bare", "sparse", "words", "names", "errors", "overview-only",
                                 "cold-default"}
    assert parse_dialects("all,request-names") == (*ALL_DIALECTS, "request-names")
    assert parse_dialects("cursor,all") == ALL_DIALECTS


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "name at least one dialect"),
        (" , ", "name at least one dialect"),
        ("nope", "unknown dialect 'nope'"),
        ("offset,nope", "unknown dialect 'nope'"),
        ("overview-only,detailed-only", "overview-only and detailed-only cannot be combined"),
        ("all,detailed-only", "overview-only and detailed-only cannot be combined"),
        ("offset,cursor", "offset and cursor cannot be combined"),
        ("all,link", "cursor and link cannot be combined"),
        ("standard,words", "standard is the absence of other dialects"),
    ],
)
def test_a_bad_list_is_refused(text: str, said: str) -> None:
    with pytest.raises(DialectError, match=said):
        parse_dialects(text)


def test_an_unknown_name_is_answered_with_every_name() -> None:
    with pytest.raises(DialectError) as caught:
        parse_dialects("nope")
    assert str(caught.value).endswith("the dialects: " + ", ".join([*NAMES, "all"]))


def test_settings_with_an_unknown_dialect_make_no_app(tmp_path: Path) -> None:
    settings = SandboxSettings(db_path=tmp_path / "db.sqlite3", api_keys=["k"], dialects=("nope",))
    with pytest.raises(DialectError):
        create_app(settings, clock=ManualClock())
    assert not (tmp_path / "db.sqlite3").exists()  # refused before anything was made


def test_every_operation_the_dialects_know_is_a_route_of_the_app(tmp_path: Path) -> None:
    app = create_app(SandboxSettings(db_path=tmp_path / "db.sqlite3", api_keys=["k"], companies=30, leads=1),
                     clock=ManualClock())
    try:
        assert not any(m.cls is DialectMiddleware for m in app.user_middleware), "standard: not installed"
        for method, template in OPERATIONS:
            path = template.replace("{template_id}", "tpl").replace("{run_id}", "run")
            path = path.replace("{", "").replace("}", "")
            for name in ("company_id", "job_id", "search_id", "contact_id", "lead_id", "page_id", "rec_id",
                         "competitor_id"):
                path = path.replace(name, "7")
            assert routed(app.router.routes, {"type": "http"}, method, path), (method, template)
            assert find_operation(method, path).template == template, (method, path)
        assert not routed(app.router.routes, {"type": "http"}, "DELETE", "/v1/health")
        assert not routed(app.router.routes, {"type": "http"}, "GET", "/v1/nowhere")
    finally:
        app.state.db.close()


# ------------------------------------------------------------------ the command line option


def test_an_unknown_dialect_is_one_line_naming_them_all() -> None:
    result = CliRunner().invoke(sandbox, ["--dialect", "nope"])
    assert result.exit_code == EXIT_BAD_INPUT
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: --dialect: unknown dialect 'nope'; the dialects: ")
    assert all(name in lines[0] for name in [*NAMES, "all"])


def test_two_families_at_once_are_one_line_too() -> None:
    result = CliRunner().invoke(sandbox, ["--dialect", "overview-only,detailed-only"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr.strip().splitlines() == [
        "Error: --dialect: overview-only and detailed-only cannot be combined: research has one path family"
    ]


def test_the_dialects_reach_the_server_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    served: list[SandboxSettings] = []
    monkeypatch.setattr("warmline_sandbox.server.run", served.append)
    db = str(tmp_path / "db.sqlite3")
    assert CliRunner().invoke(sandbox, ["--db", db, "--dialect", "sparse, offset"]).exit_code == 0
    assert CliRunner().invoke(sandbox, ["--db", db]).exit_code == 0
    assert [settings.dialects for settings in served] == [("offset", "sparse"), ()]


def test_the_help_names_every_dialect() -> None:
    result = CliRunner().invoke(sandbox, ["--help"])
    assert result.exit_code == 0
    text = re.sub(r"-\s+", "-", " ".join(result.output.split()))  # click wraps at hyphens too
    assert all(name in text for name in [*NAMES[1:], "all"])
