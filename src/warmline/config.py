"""Settings, paths and the API key.

Precedence, lowest first: built-in defaults, the TOML config file, environment variables.
The file is optional; a missing one is not an error, a malformed one is (we would rather
say so than run against the wrong service).

The API key comes from the first of these that has one (docs/cli.md, "Config and API key"):
`WARMLINE_API_KEY` (or the pipe `WARMLINE_API_KEY_FD` names: how `warmline web` hands it to
the cockpits it starts); `[service] api_key_cmd`, a command that prints it (a password manager:
`pass show warmline`); the system keyring, when `[service] keyring = true` (written by
`warmline key set`, with the optional `keyring` extra); `[service] api_key` in the file.
The command and the keyring are consulted only when the config names them, so the
cockpit's first paint loads neither `subprocess`'s child nor `keyring` otherwise.
A file holding the key that others can read is reported on stderr with the fix.

The API key is held in a field excluded from `repr` so that it never reaches a log line,
a traceback or the screen by accident.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
import tomllib
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from warmline.textsafe import terminal_line
from warmline.work_days import DEFAULT_WORK_DAYS, parse_work_days

T = TypeVar("T")

APP_NAME = "warmline"
DEFAULT_BASE_URL = "https://api.salesintelligence.example/"
DEFAULT_THEME = "warmline-dark"
DEFAULT_UNDO_SECONDS = 5.0
MAX_UNDO_SECONDS = 60.0
START_SCREENS = ("today", "leads")
"""What `[ui] start_screen` may name: the Today screen or the lead list."""
DEFAULT_COLD_AFTER_DAYS = 14
DEFAULT_CONCURRENCY = 4

ENV_BASE_URL = "WARMLINE_BASE_URL"
ENV_API_KEY = "WARMLINE_API_KEY"
ENV_DATA_DIR = "WARMLINE_DATA_DIR"
ENV_CONFIG = "WARMLINE_CONFIG"
ENV_API_KEY_FD = "WARMLINE_API_KEY_FD"
"""An inherited pipe to read the key from, once: how `warmline web` gives each cockpit it
starts the key without putting the key in the cockpit's environment (warmline.web.session),
where every process the cockpit starts would inherit it."""

KEYRING_SERVICE = "warmline"
KEYRING_USER = "api_key"
"""Where `warmline key set` keeps the key in the system keyring (service, user name)."""
KEY_COMMAND_TIMEOUT = 10.0
"""Seconds `api_key_cmd` may take (a password manager asking for its passphrase included)."""

KEY_FROM_ENV = ENV_API_KEY
KEY_FROM_COMMAND = "api_key_cmd"
KEY_FROM_KEYRING = "keyring"
KEY_FROM_FILE = "config file"
KEY_FROM_PIPE = "warmline web"


KEY_FIX = "run `warmline key set`"
"""The end of every line that meets a missing or refused key: the one command that stores
one (asking without echo, into the keyring or a 0600 file), so the rep need not know where."""


def key_fix(key_source: str | None = None) -> str:
    """What to do about a missing or refused key, for the end of a one-line message.

    `warmline key set` alone does not help when the key came from somewhere that wins over
    what it stores (`WARMLINE_API_KEY`, `api_key_cmd`): then say that first. Never the key."""
    if key_source == KEY_FROM_ENV:
        return f"fix {ENV_API_KEY}, or unset it and {KEY_FIX}"
    if key_source == KEY_FROM_COMMAND:
        return f"fix {KEY_FROM_COMMAND} with `warmline config edit`, or remove it and {KEY_FIX}"
    return KEY_FIX


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
    """Everything the cockpit and the headless commands need to run: the one typed model of
    the settings, read once (`load_config`) and handed to the command line, the engine and
    the app. `check_settings` gives the same model for the file alone."""

    base_url: str = field(default=DEFAULT_BASE_URL, repr=False)  # may hold user:password@
    api_key: str | None = field(default=None, repr=False)
    data_dir: Path = field(default_factory=data_dir)
    theme: str = DEFAULT_THEME
    keymap: dict[str, str] = field(default_factory=dict)
    flush_concurrency: int = DEFAULT_CONCURRENCY
    undo_seconds: float = DEFAULT_UNDO_SECONDS
    annotate_late_activities: bool = False
    start_screen: str = "today"
    """The screen the cockpit opens on: "today" or "leads" (`START_SCREENS`)."""
    cold_after_days: int = DEFAULT_COLD_AFTER_DAYS
    """A warm lead with no activity for this many days is going cold (Today)."""
    work_days: tuple[int, ...] = DEFAULT_WORK_DAYS
    """`[ui] work_days` ("mon-fri"): a follow-up snoozed "a day" goes to the next of these."""
    service_fields: dict[str, dict[str, str]] = field(default_factory=dict)
    """`[service.fields]`: request field names of a service that reads them otherwise
    (`warmline.api.request_fields`)."""
    source: Path | None = None
    key_source: str | None = None
    """Where the key came from: KEY_FROM_ENV, _COMMAND, _KEYRING or _FILE; None without one."""
    api_key_cmd: str | None = field(default=None, repr=False)  # may hold the key itself (`echo KEY`)
    """The file's `[service] api_key_cmd`, as written: how the key is fetched (`load_config`),
    and what `config show` names without running it."""
    use_keyring: bool = False
    """The file's `[service] keyring`: the key is looked for in the system keyring."""
    unread_settings: tuple[str, ...] = ()
    """The file's settings Warmline does not read, each named with where it may belong
    (`setting_hint`): said on stderr, and by the cockpit on screen, which draws over it."""

    @property
    def has_api_key(self) -> bool:
        return bool(self.api_key)

    @property
    def db_path(self) -> Path:
        return self.data_dir / "cache.sqlite3"

    def with_service(self, base_url: str, api_key: str) -> Config:
        """A copy pointed at another service (used by `warmline demo`)."""
        return replace(self, base_url=base_url, api_key=api_key, key_source=None)


def load_config(
    path: Path | None = None, env: Mapping[str, str] | None = None, *, fetch_key: bool = True
) -> Config:
    """Read the config file (if any) and the environment into a `Config`.

    `fetch_key=False` leaves the key command and the keyring alone (`warmline config show`
    must not run a password manager); the key is then only the environment's or the file's.
    """
    env = os.environ if env is None else env
    path = path or config_path()
    for name in (ENV_BASE_URL, ENV_API_KEY, ENV_DATA_DIR):
        if not is_utf8(env.get(name) or ""):
            raise ConfigError(f"{name} is not valid UTF-8")
    raw = _read_toml(path)
    in_file = check_settings(raw, path)
    unread = warn_unknown_settings(raw, path)
    if in_file.api_key:
        warn_if_readable(path)
    api_key, key_source = _find_key(in_file, path, env, fetch_key)
    env_dir = env.get(ENV_DATA_DIR)
    return replace(
        in_file,
        base_url=env.get(ENV_BASE_URL) or in_file.base_url,
        api_key=api_key,
        key_source=key_source,
        data_dir=Path(env_dir).expanduser() if env_dir else in_file.data_dir,
        source=path if path.exists() else None,
        unread_settings=unread,
    )


def check_settings(raw: dict[str, Any], path: Path) -> Config:
    """The file's settings, checked, as the `Config` they make alone (the defaults where the
    file says nothing; no environment, the key only the file's own, none fetched): a wrong
    type or range is a `ConfigError` naming the file and every such setting in one line,
    so a rep fixing a hand-edited file learns all of it at once, not one per run. Shared
    by `load_config` and `warmline config set`/`edit`, so a file the commands write is one
    the cockpit accepts."""
    problems: list[str] = []

    def checked(check: Callable[[], T], fallback: T) -> T:
        """`check()`, or `fallback` with the problem kept, so that the checks go on."""
        try:
            return check()
        except ConfigError as exc:
            problems.append(str(exc))
            return fallback

    configured_dir = checked(lambda: _string(raw, "data_dir"), None)
    service: dict[str, Any] = checked(lambda: _table(raw, "service"), {})
    base_url = checked(lambda: _string(service, "base_url", "service"), None)
    api_key = checked(lambda: _string(service, "api_key", "service"), None)
    api_key_cmd = checked(lambda: _api_key_cmd(service), None)
    use_keyring = checked(lambda: _flag(service, "keyring", "[service] keyring"), False)
    service_fields: dict[str, dict[str, str]] = checked(lambda: _service_fields(service), {})
    ui: dict[str, Any] = checked(lambda: _table(raw, "ui"), {})
    theme = checked(lambda: _string(ui, "theme", "ui"), None)
    start_screen = checked(lambda: _start_screen(ui), "today")
    cold_after_days = checked(lambda: _cold_after_days(ui), DEFAULT_COLD_AFTER_DAYS)
    work_days = checked(lambda: _work_days(ui), DEFAULT_WORK_DAYS)
    keys: dict[str, Any] = checked(lambda: _table(raw, "keys"), {})
    keymap = {str(k): checked(partial(_key_value, v, str(k)), "") for k, v in keys.items()}
    sync: dict[str, Any] = checked(lambda: _table(raw, "sync"), {})
    concurrency = checked(lambda: _concurrency(sync), DEFAULT_CONCURRENCY)
    undo_seconds = checked(lambda: _undo_seconds(sync), DEFAULT_UNDO_SECONDS)
    annotate = checked(lambda: _flag(sync, "annotate_late_activities", "[sync] annotate_late_activities"), False)
    if problems:
        raise ConfigError(f"{path}: " + "; ".join(problems))
    return Config(
        base_url=base_url or DEFAULT_BASE_URL,
        api_key=api_key,
        key_source=KEY_FROM_FILE if api_key else None,
        api_key_cmd=api_key_cmd,
        use_keyring=use_keyring,
        data_dir=Path(configured_dir).expanduser() if configured_dir else data_dir(),
        theme=theme or DEFAULT_THEME,
        keymap=keymap,
        flush_concurrency=concurrency,
        undo_seconds=undo_seconds,
        annotate_late_activities=annotate,
        start_screen=start_screen,
        cold_after_days=cold_after_days,
        work_days=work_days,
        service_fields=service_fields,
    )


def _api_key_cmd(service: Mapping[str, Any]) -> str | None:
    command = _string(service, "api_key_cmd", "service")
    if command:  # "" is unset: how `warmline config set service.api_key_cmd ""` removes it
        _command_words(command)
    return command or None


def _concurrency(sync: Mapping[str, Any]) -> int:
    concurrency = sync.get("concurrency", DEFAULT_CONCURRENCY)
    if not isinstance(concurrency, int) or isinstance(concurrency, bool) or not 1 <= concurrency <= 16:
        raise ConfigError("[sync] concurrency must be a whole number from 1 to 16")
    return concurrency


def _undo_seconds(sync: Mapping[str, Any]) -> float:
    undo_seconds = sync.get("undo_seconds", DEFAULT_UNDO_SECONDS)
    if (
        not isinstance(undo_seconds, int | float)
        or isinstance(undo_seconds, bool)
        or not 0 <= undo_seconds <= MAX_UNDO_SECONDS
    ):
        raise ConfigError(f"[sync] undo_seconds must be a number from 0 to {MAX_UNDO_SECONDS:g}")
    return float(undo_seconds)


def _flag(table: Mapping[str, Any], key: str, name: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be true or false")
    return value


def _start_screen(ui: Mapping[str, Any]) -> str:
    start_screen = _string(ui, "start_screen", "ui")
    if start_screen is not None and start_screen not in START_SCREENS:
        raise ConfigError("[ui] start_screen must be " + " or ".join(f'"{s}"' for s in START_SCREENS))
    return start_screen or "today"


def _cold_after_days(ui: Mapping[str, Any]) -> int:
    cold_after_days = ui.get("cold_after_days", DEFAULT_COLD_AFTER_DAYS)
    if not isinstance(cold_after_days, int) or isinstance(cold_after_days, bool) or not 1 <= cold_after_days <= 365:
        raise ConfigError("[ui] cold_after_days must be a whole number from 1 to 365")
    return cold_after_days


def _work_days(ui: Mapping[str, Any]) -> tuple[int, ...]:
    """`[ui] work_days`, a string such as "mon-fri" (`warmline.work_days`)."""
    raw = ui.get("work_days")
    if raw is None:
        return DEFAULT_WORK_DAYS
    if not isinstance(raw, str):
        raise ConfigError('[ui] work_days must be a string such as "mon-fri"')
    try:
        return parse_work_days(raw)
    except ValueError as exc:
        raise ConfigError(f"[ui] work_days {exc}") from None


def _service_fields(service: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """`[service.fields]`, checked against the operations and fields it may rename."""
    raw = service.get("fields")
    if raw is None:
        return {}
    # deferred: first frame (warmline.api is loaded before it only by a config with the table)
    from warmline.api.request_fields import RequestFields, RequestFieldsError

    if not isinstance(raw, dict):
        raise ConfigError("[service.fields] must be a table")
    try:
        return RequestFields(raw).as_config()
    except RequestFieldsError as exc:
        raise ConfigError(str(exc)) from None


KNOWN_SETTINGS: dict[str, tuple[str, ...]] = {
    "": ("data_dir", "service", "ui", "keys", "sync"),
    "service": ("base_url", "api_key", "api_key_cmd", "keyring", "fields"),
    "ui": ("theme", "start_screen", "cold_after_days", "work_days"),
    "sync": ("concurrency", "undo_seconds", "annotate_late_activities"),
}
"""Every setting the file may hold, by table ("" the top level); [keys] holds binding ids."""


def unknown_settings(raw: dict[str, Any]) -> list[str]:
    """The settings of a file that Warmline does not read (a typo does nothing silently
    otherwise): `warmline config edit` and `show` name them. `load_config` does not refuse
    them, so an older Warmline still opens a newer file."""
    unknown = [name for name in raw if name not in KNOWN_SETTINGS[""]]
    for table, names in KNOWN_SETTINGS.items():
        value = raw.get(table) if table else None
        if isinstance(value, dict):
            unknown += [f"{table}.{name}" for name in value if name not in names]
    return unknown


def setting_hint(name: str) -> str:
    """An unknown setting as the messages name it, with where it may belong: a known
    setting at another level (`base_url`: under [service]; `sync.data_dir`: at the top),
    or a near spelling."""
    table, _, leaf = name.rpartition(".")
    if table and leaf in KNOWN_SETTINGS[""]:
        return f"{name} (at the top of the file, before any [table]?)"
    homes = [home for home, names in KNOWN_SETTINGS.items() if home and home != table and leaf in names]
    if homes:
        return f"{name} (under [{homes[0]}]?)"
    import difflib  # deferred: command line (the queue path; only a file with an unknown setting needs it)

    known = [f"{home}.{n}" if home else n for home, names in KNOWN_SETTINGS.items() for n in names]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
    return f"{name} ({close[0]}?)" if close else name


def warn_unknown_settings(raw: dict[str, Any], path: Path) -> tuple[str, ...]:
    """The settings of the file Warmline does not read, as `setting_hint` names them; named
    on stderr too, once per file per process: `base_url` at the top of the file was ignored
    in silence, and the cockpit went to the default service. Not refused (see
    `unknown_settings`)."""
    named = tuple(setting_hint(name) for name in unknown_settings(raw))
    if named and path not in _WARNED_UNKNOWN:
        _WARNED_UNKNOWN.add(path)
        print(terminal_line(f"{path}: Warmline does not read {', '.join(named)}"), file=sys.stderr)
    return named


_WARNED_UNKNOWN: set[Path] = set()


def _find_key(in_file: Config, path: Path, env: Mapping[str, str], fetch: bool) -> tuple[str | None, str | None]:
    """The key and where it came from, by the precedence of the module's docstring
    (`in_file`: the file's settings, from `check_settings`)."""
    if env.get(ENV_API_KEY_FD):
        return key_from_pipe(env[ENV_API_KEY_FD]), KEY_FROM_PIPE
    if env.get(ENV_API_KEY):
        return env[ENV_API_KEY], KEY_FROM_ENV
    if fetch and in_file.api_key_cmd:
        return run_key_command(in_file.api_key_cmd, path), KEY_FROM_COMMAND
    if fetch and in_file.use_keyring:
        found = keyring_key(path)
        if found:
            return found, KEY_FROM_KEYRING
    if in_file.api_key:
        return in_file.api_key, KEY_FROM_FILE
    return None, None


def _command_words(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"[service] api_key_cmd cannot be read as a command ({exc})") from None
    if not words:
        raise ConfigError("[service] api_key_cmd is empty")
    return words


def run_key_command(command: str, path: Path, timeout: float | None = None) -> str:
    """The key printed by `command` (`api_key_cmd`): split as a shell would (`shlex`) but
    run without one, its output's first line stripped (`pass show` puts the password
    first). A failure, a timeout, too much output or no key is one line naming the command.

    Bounded whatever the command does: at most `KEY_COMMAND_OUTPUT` bytes are read (`yes`
    grew to gigabytes before), and at the cap or the timeout (`KEY_COMMAND_TIMEOUT`) its
    whole process group is killed, grandchildren too: it runs in a session of its own,
    which leaves it its stdin (a prompt that reads it still works) but not `/dev/tty`.
    Its stderr goes nowhere and is never quoted: a password manager may print the key
    there. A first line longer than `MAX_KEY_LENGTH` is refused, not sent as a key."""
    import subprocess  # deferred: first frame (only when api_key_cmd is configured)

    try:
        words = _command_words(command)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    shown = f"{path}: [service] api_key_cmd `{terminal_line(command)}`"
    limit = KEY_COMMAND_TIMEOUT if timeout is None else timeout
    try:
        child = subprocess.Popen(  # the rep's own command, without a shell
            words, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True
        )
    except FileNotFoundError:
        raise ConfigError(f"{shown}: {terminal_line(words[0])} not found") from None
    except OSError as exc:
        raise ConfigError(f"{shown} could not run ({exc.strerror})") from None
    output, problem = _capped_output(child, limit)
    if problem is not None:
        raise ConfigError(f"{shown} {problem}")
    if child.returncode != 0:
        raise ConfigError(f"{shown} failed (exit {child.returncode}); run it yourself to see its messages")
    return _first_line_key(output, shown)


KEY_COMMAND_OUTPUT = 64 * 1024
"""Bytes of `api_key_cmd`'s output read at most; more is refused (a key is one short line)."""
MAX_KEY_LENGTH = 1024
"""Characters a key may have: far over any service's, far under a pasted file."""


def _capped_output(child: Any, timeout: float) -> tuple[bytes, str | None]:
    """`child`'s stdout, read on a thread until it ends, `KEY_COMMAND_OUTPUT` is passed or
    `timeout` runs out; then the child's exit, within what is left of `timeout`. On a
    problem (the words for it, second) the process group is killed first, while the
    child is unreaped, so its group id cannot belong to anyone else yet."""
    # deferred: first frame (only when api_key_cmd is configured)
    import subprocess
    import threading
    import time

    chunks: list[bytes] = []

    def read() -> None:
        size = 0
        while size <= KEY_COMMAND_OUTPUT:
            chunk = child.stdout.read1(KEY_COMMAND_OUTPUT + 1 - size)
            if not chunk:
                return
            chunks.append(chunk)
            size += len(chunk)

    deadline = time.monotonic() + timeout
    reader = threading.Thread(target=read, name="api-key-cmd", daemon=True)
    reader.start()
    reader.join(timeout)
    output = b"".join(chunks)
    problem = None
    if len(output) > KEY_COMMAND_OUTPUT:
        problem = f"printed more than {KEY_COMMAND_OUTPUT // 1024} KiB; a key is one line"
    elif reader.is_alive():
        problem = f"did not finish within {timeout:g} s"
    else:
        try:
            child.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            problem = f"did not finish within {timeout:g} s"
    if problem is not None:
        _kill_group(child)
        reader.join(1.0)  # the group's end closes the pipe: the reader sees EOF at once
    if not reader.is_alive():  # else a process outside the group holds the pipe: closing it
        child.stdout.close()  # under the blocked reader would wait for that process
    return output, problem


def _kill_group(child: Any) -> None:
    """Kill `child` and everything in its process group (its own session's), then reap it."""
    import signal  # deferred: first frame (only when api_key_cmd is configured)

    try:
        if hasattr(os, "killpg"):
            os.killpg(child.pid, signal.SIGKILL)
        else:  # Windows: no process groups to signal
            child.kill()
    except (ProcessLookupError, PermissionError):
        pass
    child.wait()


def _first_line_key(output: bytes, shown: str) -> str:
    """The key: the output's first non-blank line, stripped, of a sane length."""
    try:
        text = output.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ConfigError(f"{shown} printed something that is not UTF-8") from None
    key = text.splitlines()[0].strip() if text else ""
    if not key:
        raise ConfigError(f"{shown} printed nothing")
    if len(key) > MAX_KEY_LENGTH:
        raise ConfigError(f"{shown} printed a first line of {len(key):,} characters, not a key (at most {MAX_KEY_LENGTH:,})")
    return key


def key_from_pipe(number: str) -> str:
    """The key written to the inherited pipe `number` (`ENV_API_KEY_FD`): read to its end,
    then closed, and the variable taken out of this process's environment, so that no
    process started from here meets a number that may name another file by then."""
    os.environ.pop(ENV_API_KEY_FD, None)
    shown = f"{ENV_API_KEY_FD}={terminal_line(number)}"
    try:
        fd = int(number)
    except ValueError:
        raise ConfigError(f"{shown} is not a file descriptor") from None
    chunks: list[bytes] = []
    try:
        while chunk := os.read(fd, KEY_COMMAND_OUTPUT):
            chunks.append(chunk)
            if sum(map(len, chunks)) > KEY_COMMAND_OUTPUT:
                break
    except OSError as exc:
        raise ConfigError(f"{shown} cannot be read ({exc.strerror})") from None
    finally:
        with suppress(OSError):
            os.close(fd)
    return _first_line_key(b"".join(chunks), shown)


def keyring_key(path: Path) -> str | None:
    """The key `warmline key set` stored in the system keyring, None if it holds none.
    Imported only here: the package is an optional extra, and loading its backends is
    slow (a D-Bus connection on Linux)."""
    try:
        import keyring  # deferred: first frame (only when [service] keyring = true)
    except ImportError:
        raise ConfigError(
            f"{path}: [service] keyring = true, but the keyring package is not installed:"
            " install warmline's `keyring` extra, or run `warmline key set` to store the key again"
        ) from None
    try:
        found = keyring.get_password(KEYRING_SERVICE, KEYRING_USER)
    except Exception as exc:  # noqa: BLE001 (any backend's failure: locked, no D-Bus...)
        raise ConfigError(f"the system keyring could not be read ({type(exc).__name__}: {exc})") from None
    return found or None


def key_file_problem(path: Path) -> str | None:
    """A warning line when `path` (a file holding the key) is readable or writable by
    group or others, with the command that fixes it; None when private (or on Windows,
    where the mode bits do not say who can read)."""
    if os.name == "nt":
        return None
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None
    if not mode & 0o077:
        return None
    return (
        f"Warning: {path} holds the API key and other users can read it (mode {mode:04o});"
        f" run: chmod 600 {shlex.quote(str(path))}"
    )


def warn_if_readable(path: Path) -> None:
    """Print `key_file_problem` on stderr, once per file per process."""
    problem = key_file_problem(path)
    if problem and path not in _WARNED:
        _WARNED.add(path)
        print(terminal_line(problem), file=sys.stderr)  # the path may hold controls


_WARNED: set[Path] = set()


def mask_key(key: str) -> str:
    """The key as `config show` and `key show` print it: its last four characters, and
    those only when it is long enough that they give little away."""
    return f"****{key[-4:]}" if len(key) >= 16 else "****"


def write_private(path: Path, text: str) -> None:
    """Write `path` whole, mode 0600 whatever the umask (it may hold the key), its
    directory made 0700 if new: a temporary file beside it, then a rename, so a reader
    never sees half a file and an interrupted write leaves the old one."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            os.chmod(temporary, 0o600)  # O_CREAT's mode is filtered by the umask; an old file kept its own
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:  # TOML is UTF-8
        raise ConfigError(f"{path}: not valid UTF-8 (byte {exc.object[exc.start]:#04x} at offset {exc.start})") from None
    return parse_toml(text, path)


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """`text`, the file at `path`, as TOML; else a `ConfigError` naming the file. Shared with
    `warmline config set`/`edit`, so a file one refuses in one line the other does too."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:  # tomllib recurses per level: `a = [[[[...` 5,000 deep
        raise ConfigError(f"{path}: nested too deeply to be a Warmline config") from None


def is_utf8(text: str) -> bool:
    """False for text decoded from bytes that were not UTF-8: Python keeps such bytes of
    the command line and the environment as lone surrogates, which cannot be stored,
    sent or printed (`UnicodeEncodeError` far from where they came in)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _table(raw: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table")
    return value


def _string(table: Mapping[str, Any], key: str, table_name: str = "") -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"[{table_name}] {key} must be a string" if table_name else f"{key} must be a string")
    return value


def _key_value(value: object, binding_id: str) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    if isinstance(value, str):
        return value
    raise ConfigError(f"[keys] {binding_id} must be a key or a list of keys")


EXAMPLE_CONFIG = """\
# Warmline's configuration (`warmline config init` wrote it; `warmline config set KEY VALUE`
# and `warmline config edit` change it, checking what they write). Every setting is
# optional: a commented-out line shows the default. The environment variables
# WARMLINE_BASE_URL, WARMLINE_API_KEY and WARMLINE_DATA_DIR win over the values here.

# Where the local cache lives (default: the platform's user data directory).
# data_dir = "~/warmline-data"

[service]
# The Sales Intelligence Service's address.
# base_url = "https://api.salesintelligence.example/"

# The API key (Settings > API keys in the service). Rather than typing it here, run
# `warmline key set`: it asks for the key without showing it and keeps it in the system
# keyring when warmline's `keyring` extra is installed, else here, with this file 0600.
# api_key = "..."

# Or a command that prints the key (run without a shell, 10 s at most, its first line
# used), such as a password manager:
# api_key_cmd = "pass show warmline"

# Set by `warmline key set` when the key is in the system keyring.
# keyring = false

# Which one is used: WARMLINE_API_KEY, then api_key_cmd, then the keyring, then api_key.

# Request fields the spec does not show, named as your service reads them, per operation
# (`warmline service check --write LEAD` tells which it ignores; docs/wire.md lists them).
# fields = { change_lead_status = { lead_status = "status" } }

[ui]
# "warmline-dark" or "warmline-light", or a theme of yours in themes/ beside this file.
# (A theme picked in the cockpit's palette is remembered and wins over this one.)
# theme = "warmline-dark"
# The screen the cockpit opens on: "today" (what to do now) or "leads" (the lead list).
# start_screen = "today"
# Today lists a warm lead as going cold after this many days without activity (1 to 365).
# cold_after_days = 14
# The days you work: a follow-up snoozed "a day" goes to the next one ("mon-fri", "sun-thu",
# "mon,tue,thu").
# work_days = "mon-fri"

[keys]
# binding id = a key, or a list of keys ["c", "x"]; press ? in the cockpit (or run
# `python -m warmline.tui.keys`) for the ids.
# "recommendations.complete" = "c"

[sync]
# How many queued actions are sent at once (1 to 16).
# concurrency = 4
# Seconds a one-key decision in the cockpit (complete, dismiss, status, pin, remove) is
# held before it is sent, so that `u` can take it back (0 to 60; 0 sends at once).
# undo_seconds = 5
# Append "(logged 13:05)" to an activity delivered more than a minute after it was logged
# (the service has no field for the time it happened).
# annotate_late_activities = false
"""
