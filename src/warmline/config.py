"""Settings, paths and the API key.

Precedence, lowest first: built-in defaults, the TOML config file, environment variables.
The file is optional; a missing one is not an error, a malformed one is (we would rather
say so than run against the wrong service).

The API key is held in a field excluded from `repr` so that it never reaches a log line,
a traceback or the screen by accident.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs

APP_NAME = "warmline"
DEFAULT_BASE_URL = "https://api.salesintelligence.example/"
DEFAULT_THEME = "warmline-dark"
DEFAULT_UNDO_SECONDS = 5.0
MAX_UNDO_SECONDS = 60.0

ENV_BASE_URL = "WARMLINE_BASE_URL"
ENV_API_KEY = "WARMLINE_API_KEY"
ENV_DATA_DIR = "WARMLINE_DATA_DIR"
ENV_CONFIG = "WARMLINE_CONFIG"


_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/?#@'\"]*@")


def redact_url(text: object) -> str:
    """`text` with the user-info of every URL in it masked: `https://***@host/`.

    A base URL may carry `user:password@`; any message, status or log line that shows a
    URL (or quotes one inside a longer text, as httpx's errors do) passes through here.
    """
    return _USERINFO.sub(r"\1***@", str(text))


class ConfigError(Exception):
    """The config file exists but cannot be used; the message says where and why."""


def data_dir() -> Path:
    """Where the cache lives: `WARMLINE_DATA_DIR`, else the platform's user data dir."""
    override = os.environ.get(ENV_DATA_DIR)
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))


def config_path() -> Path:
    """The TOML config file: `WARMLINE_CONFIG`, else `config.toml` in the user config dir."""
    override = os.environ.get(ENV_CONFIG)
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


@dataclass(frozen=True)
class Config:
    """Everything the cockpit and the headless commands need to run."""

    base_url: str = field(default=DEFAULT_BASE_URL, repr=False)  # may hold user:password@
    api_key: str | None = field(default=None, repr=False)
    data_dir: Path = field(default_factory=data_dir)
    theme: str = DEFAULT_THEME
    keymap: dict[str, str] = field(default_factory=dict)
    flush_concurrency: int = 4
    undo_seconds: float = DEFAULT_UNDO_SECONDS
    annotate_late_activities: bool = False
    source: Path | None = None

    @property
    def has_api_key(self) -> bool:
        return bool(self.api_key)

    @property
    def db_path(self) -> Path:
        return self.data_dir / "cache.sqlite3"

    def with_service(self, base_url: str, api_key: str) -> Config:
        """A copy pointed at another service (used by `warmline demo`)."""
        return replace(self, base_url=base_url, api_key=api_key)


def load_config(path: Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read the config file (if any) and the environment into a `Config`."""
    env = os.environ if env is None else env
    path = path or config_path()
    for name in (ENV_BASE_URL, ENV_API_KEY, ENV_DATA_DIR):
        if not is_utf8(env.get(name) or ""):
            raise ConfigError(f"{name} is not valid UTF-8")
    raw = _read_toml(path)
    service = _table(raw, "service", path)
    ui = _table(raw, "ui", path)
    keys = _table(raw, "keys", path)
    sync = _table(raw, "sync", path)

    base_url = env.get(ENV_BASE_URL) or _string(service, "base_url", path) or DEFAULT_BASE_URL
    api_key = env.get(ENV_API_KEY) or _string(service, "api_key", path)
    configured_dir = env.get(ENV_DATA_DIR) or _string(raw, "data_dir", path)
    theme = _string(ui, "theme", path) or DEFAULT_THEME
    keymap = {str(k): _key_value(v, k, path) for k, v in keys.items()}
    concurrency = sync.get("concurrency", 4)
    if not isinstance(concurrency, int) or isinstance(concurrency, bool) or not 1 <= concurrency <= 16:
        raise ConfigError(f"{path}: [sync] concurrency must be a whole number from 1 to 16")
    undo_seconds = sync.get("undo_seconds", DEFAULT_UNDO_SECONDS)
    if (
        not isinstance(undo_seconds, int | float)
        or isinstance(undo_seconds, bool)
        or not 0 <= undo_seconds <= MAX_UNDO_SECONDS
    ):
        raise ConfigError(f"{path}: [sync] undo_seconds must be a number from 0 to {MAX_UNDO_SECONDS:g}")
    annotate = sync.get("annotate_late_activities", False)
    if not isinstance(annotate, bool):
        raise ConfigError(f"{path}: [sync] annotate_late_activities must be true or false")
    return Config(
        base_url=base_url,
        api_key=api_key or None,
        data_dir=Path(configured_dir).expanduser() if configured_dir else data_dir(),
        theme=theme,
        keymap=keymap,
        flush_concurrency=concurrency,
        undo_seconds=float(undo_seconds),
        annotate_late_activities=annotate,
        source=path if path.exists() else None,
    )


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError as exc:  # TOML is UTF-8; tomllib lets the decoder's error through
        raise ConfigError(f"{path}: not valid UTF-8 (byte {exc.object[exc.start]:#04x} at offset {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror})") from None


def is_utf8(text: str) -> bool:
    """False for text decoded from bytes that were not UTF-8: Python keeps such bytes of
    the command line and the environment as lone surrogates, which cannot be stored,
    sent or printed (`UnicodeEncodeError` far from where they came in)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _table(raw: dict[str, Any], name: str, path: Path) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: [{name}] must be a table")
    return value


def _string(table: dict[str, Any], key: str, path: Path) -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{path}: {key} must be a string")
    return value


def _key_value(value: object, binding_id: str, path: Path) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    if isinstance(value, str):
        return value
    raise ConfigError(f"{path}: [keys] {binding_id} must be a key or a list of keys")


EXAMPLE_CONFIG = """\
# Warmline configuration. Environment variables WARMLINE_BASE_URL, WARMLINE_API_KEY and
# WARMLINE_DATA_DIR override the values here.
[service]
base_url = "https://api.salesintelligence.example/"
api_key = "paste your API key here (Settings > API keys in the service)"

[ui]
theme = "warmline-dark"   # or "warmline-light"

[keys]
# binding id = key(s); see the help screen (?) for the ids.
# "recommendations.complete" = "c"

[sync]
concurrency = 4
# Seconds a one-key decision in the cockpit (complete, dismiss, status, pin, remove) is
# held before it is sent, so that `u` can take it back; 0 sends at once.
undo_seconds = 5
# Append "(logged 13:05)" to an activity delivered more than a minute after it was logged
# (the service has no field for the time it happened). Off by default.
annotate_late_activities = false
"""
