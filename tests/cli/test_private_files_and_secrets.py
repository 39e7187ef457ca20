"""Permissions and secrets: the cache and its directory are private whatever the umask; a
base URL's `user:password@` never reaches an error, a notice or a log line; `warmline demo`
hands its generated key to the reference server outside the command line (which every
user of the machine can read in `ps`)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from warmline.commands.demo import running_sandbox
from warmline.config import load_config
from warmline.store import Store
from warmline.textsafe import redact_url

RUN_TIMEOUT = 60.0  # a cap on a hung run, not a timing assertion
SECRET = "s3cr3t-Pa55"


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def cli(tmp_path: Path, *args: str, base_url: str = "http://127.0.0.1:9") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARMLINE_")}
    env.update(WARMLINE_DATA_DIR=str(tmp_path / "data"), WARMLINE_CONFIG=str(tmp_path / "absent.toml"),
               WARMLINE_BASE_URL=base_url, WARMLINE_API_KEY="test-key", TERM="dumb")
    return subprocess.run(
        [sys.executable, "-m", "warmline", *args], env=env, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT, preexec_fn=lambda: os.umask(0o022),
    )


# --- modes -------------------------------------------------------------------------------------


def test_a_fresh_cache_is_0600_in_a_0700_directory_under_umask_022(tmp_path: Path) -> None:
    result = cli(tmp_path, "outbox")
    assert result.returncode == 0, result.stderr
    assert mode(tmp_path / "data") == 0o700
    assert mode(tmp_path / "data" / "cache.sqlite3") == 0o600


def test_the_wal_and_shm_files_are_0600_too(tmp_path: Path, umask_022: None) -> None:
    store = Store(tmp_path / "nested" / "data" / "cache.sqlite3")
    try:
        store.set_state("probe", "written")  # the write-ahead log now holds it
        for suffix in ("", "-wal", "-shm"):
            assert mode(tmp_path / "nested" / "data" / f"cache.sqlite3{suffix}") == 0o600, suffix
        assert mode(tmp_path / "nested" / "data") == 0o700
    finally:
        store.close()


def test_an_existing_cache_readable_by_others_is_tightened_on_open(tmp_path: Path, umask_022: None) -> None:
    Store(tmp_path / "cache.sqlite3").close()
    os.chmod(tmp_path / "cache.sqlite3", 0o644)
    Path(f"{tmp_path / 'cache.sqlite3'}-wal").write_bytes(b"")
    os.chmod(f"{tmp_path / 'cache.sqlite3'}-wal", 0o666)
    Store(tmp_path / "cache.sqlite3").close()
    assert mode(tmp_path / "cache.sqlite3") == 0o600
    assert not (tmp_path / "cache.sqlite3-wal").exists() or mode(tmp_path / "cache.sqlite3-wal") == 0o600


def test_a_data_dir_the_user_made_keeps_its_mode(tmp_path: Path, umask_022: None) -> None:
    chosen = tmp_path / "shared"
    chosen.mkdir(mode=0o755)
    Store(chosen / "cache.sqlite3").close()
    assert mode(chosen) == 0o755  # theirs; the file in it is private anyway
    assert mode(chosen / "cache.sqlite3") == 0o600


# --- a base URL with credentials -------------------------------------------------------------


def test_redact_url_masks_user_info_in_any_text() -> None:
    assert redact_url(f"https://dana:{SECRET}@api.example/v1") == "https://***@api.example/v1"
    assert redact_url(f"at 'http://{SECRET}@127.0.0.1:9/' and ftp://u:{SECRET}@x/y") == (
        "at 'http://***@127.0.0.1:9/' and ftp://***@x/y"
    )
    assert redact_url("https://api.example/path@v2 mail dana@example.com") == (
        "https://api.example/path@v2 mail dana@example.com"
    )


@pytest.mark.parametrize(
    "base_url",
    [
        f"http://dana:{SECRET}@127.0.0.1:9/",  # loopback, nothing listening: offline
        f"https://dana:{SECRET}@127.0.0.1:9/",
        f"http://dana:{SECRET}@api.example/",  # plain http to a remote host: refused
        f"ftp://dana:{SECRET}@api.example/",  # not http(s): refused
        f"https://dana:{SECRET}@[::1/",  # not a URL at all
        f"https://dana:{SECRET}@api.example:99999/",  # a port out of range
    ],
)
def test_a_base_url_with_credentials_is_never_echoed(tmp_path: Path, base_url: str) -> None:
    for args in (("sync", "--once"), ("log", "1", "Called"), ("lookup", "--query", "logistics")):
        result = cli(tmp_path, *args, base_url=base_url)
        assert SECRET not in result.stdout + result.stderr, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode in (2, 4), (args, result.returncode, result.stderr)


def test_the_config_repr_holds_neither_key_nor_credentials(tmp_path: Path) -> None:
    config = load_config(tmp_path / "absent.toml", env={
        "WARMLINE_BASE_URL": f"https://dana:{SECRET}@api.example/", "WARMLINE_API_KEY": SECRET,
    })
    assert SECRET not in repr(config)


# --- the demo's key -----------------------------------------------------------------------------


def command_lines() -> list[str]:
    """Every process's command line we can read (as `ps` shows them to any user)."""
    lines = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                lines.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace"))
            except OSError:
                continue  # gone meanwhile
    return lines


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc to read command lines")
def test_the_demo_server_gets_its_key_outside_its_command_line(tmp_path: Path) -> None:
    with running_sandbox(tmp_path / "sandbox.sqlite3", companies=100, leads=2, seed=5, job_seconds=1.0) as (url, key):
        lines = command_lines()
        assert any(" sandbox " in line and "127.0.0.1" in line for line in lines)  # it is there
        assert not [line for line in lines if key in line]
        # ...and it took the key: the service answers with it, and refuses another.
        assert httpx.get(f"{url}/v1/companies", headers={"Authorization": f"Bearer {key}"}).status_code == 200
        assert httpx.get(f"{url}/v1/companies", headers={"Authorization": "Bearer other"}).status_code == 401
