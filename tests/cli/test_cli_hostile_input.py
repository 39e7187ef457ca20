"""Hostile input at the command line and in the config (issue 21, item 10): each is one
line and a documented exit code, never a traceback, and never read as something else.

- a base URL over plain http:// is allowed for a loopback host only, judged by the
  addresses the name resolves to (`*.localhost` was trusted by its spelling);
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli_sandbox import run
from warmline.api.auth import check_base_url, is_loopback

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
