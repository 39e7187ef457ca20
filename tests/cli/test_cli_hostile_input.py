"""Hostile input at the command line and in the config (issue 21, item 10): each is one
line and a documented exit code, never a traceback, and never read as something else.

- a base URL over plain http:// is allowed for a loopback host only, judged by the
  addresses the name resolves to (`*.localhost` was trusted by its spelling);
- `logs --tail 2**63`, `research show $'\x01'` and a config nested 5,000 deep were
  tracebacks;
- ids and numbers in other scripts' digits were read as ASCII ones: `outreach remove ٣
  --yes` removed lead 3. Only 0-9 make a number now, everywhere the command line and the
  config read one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli_sandbox import open_store, run
from warmline.api.auth import check_base_url, is_loopback
from warmline.api.errors import InputError
from warmline.numbers import decimal_number, number, whole_number
from warmline.records import custom_value

# --- loopback by address, not by name ---------------------------------------------------------


def resolver(table: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def resolve(host: str) -> list[str]:
        if host not in table:
            raise OSError(-2, "Name or service not known")
        return table[host]

    return resolve


HOSTS = resolver({
    "localhost": ["127.0.0.1", "::1"],
    "dev.localhost": ["127.0.0.1"],
    "evil.localhost": ["203.0.113.7"],
    "half.localhost": ["127.0.0.1", "203.0.113.7"],
    "mapped.localhost": ["::ffff:127.0.0.1"],
    "lan.example": ["10.0.0.5"],
})


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True), ("127.8.9.10", True), ("[::1]", True), ("::ffff:127.0.0.1", True),
        ("localhost", True), ("localhost.", True), ("dev.localhost", True), ("mapped.localhost", True),
        ("evil.localhost", False), ("half.localhost", False), ("nowhere.localhost", False),
        ("lan.example", False), ("10.0.0.5", False), ("0.0.0.0", False),
    ],
)
def test_loopback_is_decided_by_the_resolved_address(host: str, loopback: bool) -> None:
    assert is_loopback(host, HOSTS) is loopback


def test_a_localhost_name_that_resolves_elsewhere_is_refused_over_http() -> None:
    assert str(check_base_url("http://dev.localhost:8765/v1", HOSTS)) == "http://dev.localhost:8765/"
    with pytest.raises(ValueError, match="Refusing plain http:// for evil.localhost"):
        check_base_url("http://evil.localhost:8765", HOSTS)
    assert str(check_base_url("https://evil.localhost", HOSTS)) == "https://evil.localhost/"  # TLS: no question


def test_the_command_line_refuses_it_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("warmline.api.auth.resolve_addresses", HOSTS)
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "config.toml"))
    result = run("config", "set", "service.base_url", "http://evil.localhost:8765/")
    assert result.exit_code == 2, result.output
    assert "Refusing plain http:// for evil.localhost" in result.stderr and "Traceback" not in result.output


# --- no tracebacks -----------------------------------------------------------------------------


def one_line_error(result) -> str:  # type: ignore[no-untyped-def]
    assert "Traceback" not in result.output, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_logs_tail_of_any_size_prints_every_line(offline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARMLINE_LOG_DIR", str(tmp_path / "log"))
    (tmp_path / "log").mkdir()
    (tmp_path / "log" / "warmline.log").write_text("one\ntwo\n")
    for tail in (str(2**63), str(10**40)):
        result = run("logs", "--tail", tail)
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines()[1:] == ["one", "two"]


def test_research_show_with_a_control_character_is_one_line(offline: Path) -> None:
    result = run("research", "show", "\x01")
    assert result.exit_code == 2
    assert "not a template id" in one_line_error(result) and "\\x01" in result.stderr


@pytest.mark.parametrize("args", [("today",), ("config", "show"), ("config", "set", "ui.theme", "x"), ("leads",)])
def test_a_config_nested_5000_deep_is_one_line(args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    monkeypatch.setenv("WARMLINE_CONFIG", str(deep))
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
    result = run(*args)
    assert result.exit_code == 2
    assert "nested too deeply" in one_line_error(result)


# --- ASCII digits only -------------------------------------------------------------------------

OTHER_DIGITS = ["٣", "３", "३", "߃", "1_0", " 1 2 ", "inf", "nan", "1e400", "0x10", "²"]


@pytest.mark.parametrize("text", OTHER_DIGITS)
def test_only_ascii_digits_make_a_number(text: str) -> None:
    assert whole_number(text) is None and decimal_number(text) is None and number(text) is None


def test_ascii_numbers_still_read() -> None:
    assert [whole_number(t) for t in ("42", " -7 ", "+3", "007")] == [42, -7, 3, 7]
    assert [number(t) for t in ("42", "2.5", "-.5", "1e3", "1.")] == [42, 2.5, -0.5, 1000.0, 1.0]
    assert whole_number("9" * 5000) is None  # not a number anyone types


@pytest.fixture
def desk(offline: Path) -> Path:
    with open_store(offline) as store:
        store.upsert_leads([{"id": 3, "company_name": "Third Ltd"}, {"id": 4, "company_name": "٣ Arabic Trading"}])
    return offline


def test_outreach_remove_with_an_arabic_three_does_not_remove_lead_3(desk: Path) -> None:
    result = run("outreach", "remove", "٣", "--yes", "--json")
    with open_store(desk) as store:
        queued = [(op.kind, op.lead_id) for op in store.outbox_rows()]
    assert ("remove_leads", 3) not in queued and all(lead != 3 for _, lead in queued), (queued, result.output)
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ("outreach", "target", "Third", "٥٠"),
        ("outreach", "deal", "Third", "--value", "١٠٠"),
        ("outreach", "deal", "Third", "--value", "inf"),
        ("followups", "snooze", "1", "--days", "٣"),
        ("logs", "--tail", "٣"),
        ("companies", "--limit", "１０"),
        ("deep-search", "dentists", "--max", "٥"),
    ],
)
def test_other_digits_are_refused_as_numbers(desk: Path, args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert any(f"is not {kind}" in result.stderr for kind in ("a whole number", "a number", "an amount")), result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("setting", "value"), [("sync.concurrency", "٣"), ("ui.cold_after_days", "１４"), ("sync.undo_seconds", "٥")])
def test_config_set_refuses_other_digits(setting: str, value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "config.toml"))
    result = run("config", "set", setting, value)
    assert result.exit_code == 2 and "must be" in result.stderr, result.output
    assert not (tmp_path / "config.toml").exists() or value not in (tmp_path / "config.toml").read_text()


def test_a_custom_number_field_refuses_other_digits() -> None:
    field = {"key": "icp_fit", "name": "ICP fit", "type": "number"}
    assert custom_value(field, "82") == 82 and custom_value(field, "8.5") == 8.5
    for text in ("٨٢", "8_2", "inf"):
        with pytest.raises(InputError):
            custom_value(field, text)


def test_a_company_reference_in_other_digits_is_a_name_not_an_id(desk: Path) -> None:
    result = run("companies", "show", "٥٠٠")
    assert result.exit_code == 2 and "no cached company" in result.stderr, result.output
