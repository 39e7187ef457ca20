"""A missing or refused API key: every command says so in one line that ends with the fix
(`warmline key set`, or first what wins over it), never shows the key, and keeps exit 3.
Against a sandbox on a real loopback port, so the refusal is the service's own 401."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from warmline.api import ServiceClient
from warmline.api.errors import AuthError
from warmline.cli import main
from warmline.config import (
    KEY_FIX,
    KEY_FROM_COMMAND,
    KEY_FROM_ENV,
    KEY_FROM_FILE,
    KEY_FROM_KEYRING,
    key_fix,
)
from warmline_sandbox.server import RunningSandbox, start_in_thread
from warmline_sandbox.settings import SandboxSettings

KEY = "hint-test-key"
WRONG = "wrong-key-4f1c9a"
ENV_FIX = "fix WARMLINE_API_KEY, or unset it and run `warmline key set`"
COMMAND_FIX = "fix api_key_cmd with `warmline config edit`, or remove it and run `warmline key set`"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    settings = SandboxSettings(
        db_path=tmp_path_factory.mktemp("sandbox") / "sandbox.sqlite3",
        api_keys=[KEY],
        seed=3,
        companies=10,
        leads=3,
        job_seconds=0.2,
        rate_limit=(100_000, 60.0),
        port=0,
    )
    running = start_in_thread(settings)
    yield running
    running.stop()


@pytest.fixture
def cfg(server: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No key anywhere (no file, no keyring), a cache synced with the right key."""
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WARMLINE_BASE_URL", server.url)
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("WARMLINE_API_KEY", KEY)
    assert run("sync", "--once").exit_code == 0
    monkeypatch.delenv("WARMLINE_API_KEY")
    return tmp_path / "config.toml"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def write_config(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o600)


def key_lines(result: Result, streams: str = "stdout stderr") -> list[str]:
    """The lines of `streams` that speak of the key."""
    text = "".join(getattr(result, stream) for stream in streams.split())
    return [line for line in text.splitlines() if "API key" in line]


def test_the_fix_names_what_wins_over_key_set() -> None:
    assert KEY_FIX == "run `warmline key set`"
    for source in (None, KEY_FROM_FILE, KEY_FROM_KEYRING):
        assert key_fix(source) == KEY_FIX
    assert key_fix(KEY_FROM_ENV) == ENV_FIX
    assert key_fix(KEY_FROM_COMMAND) == COMMAND_FIX


def test_sync_without_a_key_is_one_line_ending_with_key_set(cfg: Path) -> None:
    result = run("sync", "--once")
    assert result.exit_code == 3
    assert key_lines(result) == [
        "Error: No API key is configured: set WARMLINE_API_KEY, or run `warmline key set`"
    ]


def test_an_action_queued_without_a_key_says_how_to_set_one(cfg: Path) -> None:
    result = run("outreach", "target", "1", "80")
    assert result.exit_code == 0, result.output
    assert key_lines(result) == [
        "Queued; no API key is configured, so it waits for one: run `warmline key set`"
    ]


def test_a_job_queued_without_a_key_says_how_to_set_one(cfg: Path) -> None:
    queued = run("deep-search", "logistics companies in Ohio")
    assert queued.exit_code == 0, queued.output
    assert key_lines(queued) == [
        "Queued; no API key is configured, so it waits for one: run `warmline key set`"
    ]
    waited = run("deep-search", "logistics companies in Ohio", "--wait")
    assert waited.exit_code == 3
    assert key_lines(waited)[-1].endswith(
        "no API key is configured to start it: run `warmline key set`"
    )


def test_sync_with_a_refused_key_ends_with_key_set_and_never_shows_it(
    cfg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARMLINE_API_KEY", WRONG)
    result = run("sync", "--once")
    assert result.exit_code == 3
    (line,) = key_lines(result)
    assert line.startswith("The service refused the API key (")
    assert line.endswith("): run `warmline key set`")
    assert WRONG not in result.stdout + result.stderr


def test_an_action_refused_for_a_key_from_the_environment_says_to_fix_it(
    cfg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARMLINE_API_KEY", WRONG)
    result = run("outreach", "target", "1", "80", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ops"][0]["state"] == "queued"
    (line,) = key_lines(result, "stderr")  # stdout: the op's JSON, its last_error the 401's
    assert line.startswith("Queued; the service refused the API key (") and line.endswith(
        f"): {ENV_FIX}"
    )
    assert WRONG not in result.stdout + result.stderr


def test_a_direct_request_refused_for_a_key_in_the_file_says_key_set(cfg: Path) -> None:
    write_config(cfg, f'[service]\napi_key = "{WRONG}"\n')
    result = run("research", "show", "1")
    assert result.exit_code == 3
    (line,) = key_lines(result)
    assert line.startswith("Error: The service refused the API key (")
    assert line.endswith("): run `warmline key set`")
    assert WRONG not in result.stdout + result.stderr


def test_a_refused_key_from_api_key_cmd_says_to_fix_the_command(cfg: Path) -> None:
    write_config(cfg, f'[service]\napi_key_cmd = "echo {WRONG}"\n')
    result = run("research", "show", "1")
    assert result.exit_code == 3
    (line,) = key_lines(result)
    assert line.endswith(f"): {COMMAND_FIX}")
    assert WRONG not in result.stdout + result.stderr


async def test_the_client_without_a_key_says_key_set_before_sending() -> None:
    client = ServiceClient("http://127.0.0.1:9", None)
    async with client:
        with pytest.raises(AuthError) as refused:
            await client.get_lead(1)
    assert str(refused.value).endswith("run `warmline key set`")
