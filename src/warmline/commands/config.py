"""`warmline config path|show|init|set|edit` and `warmline key set|show|path`.

Like `gh config` and `llm keys`: the config file is found, written and checked from the
command line instead of being hunted for. Every write goes through `warmline.config`'s
checks (`check_settings`), so a file these commands leave is one the cockpit opens, and
through `write_private` (mode 0600: the file may hold the key).

`set` edits the file with tomlkit, which keeps the file's comments, order and layout (the
commented example `init` writes is mostly comments); a line-based edit would have to
re-implement TOML's tables, quoting and multi-line values to be safe. It is imported only
by the commands that write.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from warmline.commands.common import CommandError, echo_json
from warmline.commands.sandbox import demo_install_hint
from warmline.config import (
    ENV_API_KEY,
    ENV_BASE_URL,
    ENV_CONFIG,
    ENV_DATA_DIR,
    EXAMPLE_CONFIG,
    KEY_FROM_COMMAND,
    KEY_FROM_ENV,
    KEY_FROM_FILE,
    KEY_FROM_KEYRING,
    KEYRING_SERVICE,
    KEYRING_USER,
    ConfigError,
    check_settings,
    config_path,
    is_utf8,
    key_file_problem,
    load_config,
    mask_key,
    parse_toml,
    setting_hint,
    unknown_settings,
    write_private,
)
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR
from warmline.numbers import decimal_number, whole_number
from warmline.textsafe import redact_url, terminal_line
from warmline.work_days import describe_work_days, parse_work_days

WHERE = """\b
Where the file lives (WARMLINE_CONFIG names another):
  Linux    ~/.config/warmline/config.toml ($XDG_CONFIG_HOME if set)
  macOS    ~/Library/Application Support/warmline/config.toml
  Windows  %LOCALAPPDATA%\\warmline\\warmline\\config.toml"""
"""The config file's place on each OS: platformdirs' `user_config_dir("warmline")`, as
`warmline.config.config_path` asks for it (on Windows, the local, not roaming, AppData,
with the app name twice: author and app)."""


def say(text: str, err: bool = False) -> None:
    """One line to the terminal: a path or a value from the file may hold controls."""
    click.echo(terminal_line(text), err=err)


# --- settings ----------------------------------------------------------------------------------


def _boolean(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in {"true", "yes", "on", "1"}:
        return True
    if lowered in {"false", "no", "off", "0"}:
        return False
    raise ValueError("must be true or false")


def _whole(text: str) -> int:
    value = whole_number(text)  # ASCII digits only (`warmline.numbers`)
    if value is None:
        raise ValueError("must be a whole number from 1 to 16")
    return value


def _days(text: str) -> int:
    value = whole_number(text)
    if value is None:
        raise ValueError("must be a whole number of days from 1 to 365")
    return value


def _work_days(text: str) -> str:
    parse_work_days(text)  # its ValueError says what is wrong
    return text.strip().lower()


def _number(text: str) -> float | int:
    value = decimal_number(text)
    if value is None:
        raise ValueError("must be a number of seconds from 0 to 60")
    return int(value) if value.is_integer() else value


def _text(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text


def _base_url(text: str) -> str:
    from warmline.api.auth import check_base_url  # deferred: command line

    try:
        check_base_url(text)  # the client's own rule: https, or http to a loopback host
    except ValueError as exc:
        raise ValueError(f"is refused: {exc}") from None
    return text


def _command(text: str) -> str:
    try:
        shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"cannot be read as a command ({exc})") from None
    return text


SETTABLE: dict[str, tuple[str, Any, str]] = {
    "data_dir": ("", _text, "where the cache lives"),
    "service.base_url": ("service", _base_url, "the service's address"),
    "service.api_key_cmd": ("service", _command, 'a command printing the key; "" removes it'),
    "service.keyring": ("service", _boolean, "true: the key is in the system keyring"),
    "ui.theme": ("ui", _text, "warmline-dark, warmline-light or yours"),
    "ui.start_screen": ("ui", _text, "the cockpit opens on: today or leads (today)"),
    "ui.cold_after_days": ("ui", _days, "days without activity a warm lead goes cold, 1-365 (14)"),
    "ui.work_days": ("ui", _work_days, 'days a snooze of "a day" may land on (mon-fri)'),
    "sync.concurrency": ("sync", _whole, "actions sent at once, 1-16 (4)"),
    "sync.undo_seconds": ("sync", _number, "seconds to undo a decision, 0-60 (5)"),
    "sync.annotate_late_activities": ("sync", _boolean, "true: time on late activities"),
}
"""The settings `config set` writes: the table, the parser of the command line's text, a
line of help. The key itself is `warmline key set`'s; [keys] is `config edit`'s."""


def _setting_name(key: str) -> str:
    """The full name of a setting given as `sync.concurrency` or just `concurrency`."""
    if key in SETTABLE:
        return key
    if key in {"service.api_key", "api_key"}:
        raise CommandError(
            "the API key is set with `warmline key set`, which asks for it without showing it"
            " (a key on the command line stays in the shell's history)",
            EXIT_BAD_INPUT,
        )
    if key.startswith("keys."):
        raise CommandError(
            "key bindings are set with `warmline config edit`, in the [keys] table"
            " (press ? in the cockpit for the ids)",
            EXIT_BAD_INPUT,
        )
    short = [name for name in SETTABLE if name.rsplit(".", 1)[-1] == key]
    if len(short) == 1:
        return short[0]
    raise CommandError(
        f"unknown setting {key!r}; the settings: {', '.join(SETTABLE)}", EXIT_BAD_INPUT
    )


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(
            f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})", EXIT_BAD_INPUT
        ) from None


def _checked(text: str, path: Path) -> dict[str, Any]:
    """The file's TOML, refused (one line, exit 2) where the cockpit would refuse it."""
    try:
        raw = parse_toml(text, path)
        check_settings(raw, path)
    except ConfigError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None
    return raw


def edit_settings(path: Path, changes: dict[str, Any], removals: tuple[str, ...] = ()) -> None:
    """Set `changes` (full names: "service.keyring") and remove `removals` in the file at
    `path`, keeping its comments and layout; checked before anything is written; the file
    created (0600) when missing."""
    import tomlkit  # deferred: command line (only the commands that write the file)

    text = _read_text(path)
    _checked(text, path)
    document = tomlkit.parse(text)
    for name, value in changes.items():
        table_name, _, key = name.rpartition(".")
        if table_name and table_name not in document:
            if document.body:
                document.add(tomlkit.nl())
            document.add(table_name, tomlkit.table())
        holder = document[table_name] if table_name else document
        assert isinstance(holder, dict)
        if key in holder:
            holder[key] = value
        else:
            _place(holder, key, value)
    for name in removals:
        table_name, _, key = name.rpartition(".")
        holder = document.get(table_name) if table_name else document
        if isinstance(holder, dict) and key in holder:
            del holder[key]
    new_text = tomlkit.dumps(document)
    raw = _checked(new_text, path)
    for name, value in changes.items():  # what tomlkit wrote reads back as what was asked
        table_name, _, key = name.rpartition(".")
        if (raw.get(table_name, {}) if table_name else raw).get(key) != value:
            raise CommandError(
                f"{path}: {name} could not be written as asked; nothing was changed", EXIT_ERROR
            )
    write_private(path, new_text)


def _place(holder: Any, key: str, value: Any) -> None:
    """Add `key` to a tomlkit table (or the document) just below its commented-out
    example (`# undo_seconds = 5`, as `config init` writes them), else at the table's end."""
    import tomlkit.items  # deferred: command line

    container = getattr(holder, "value", holder)  # a Table wraps a Container; the document is one
    example = re.compile(rf"#\s*\"?{re.escape(key)}\"?\s*=")
    body = getattr(container, "body", [])
    for index, (name, item) in enumerate(body):
        commented = isinstance(item, tomlkit.items.Comment) and example.match(
            item.as_string().strip()
        )
        if name is None and commented and index + 1 < len(body):
            try:
                container._insert_at(index + 1, key, value)  # tomlkit keeps its index of keys
                return
            except (AttributeError, TypeError, ValueError):  # another tomlkit: append instead
                break
    holder[key] = value


# --- config ------------------------------------------------------------------------------------


@click.group("config", epilog=WHERE)
def config_group() -> None:
    """Find, show, create and change the config file.

    Settings come from, lowest first: defaults, the config file, the environment
    (WARMLINE_BASE_URL, WARMLINE_API_KEY, WARMLINE_DATA_DIR). The API key: see `warmline key`.
    """


@config_group.command("path", epilog=WHERE)
def config_path_command() -> None:
    """Print the config file's path (whether or not it exists yet)."""
    path = config_path()
    say(str(path))
    if not path.exists():
        say("(no file there yet: `warmline config init` writes a commented example)", err=True)


@config_group.command("show", epilog=EXIT_CODES_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of lines.")
def config_show(as_json: bool) -> None:
    """Print the settings in effect and where each comes from; the API key masked.

    Does not run api_key_cmd or read the keyring: `warmline key show` does.
    """
    path = config_path()
    try:
        config = load_config(path, fetch_key=False)
    except ConfigError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None
    raw = _checked(_read_text(path), path)

    def origin(env_name: str | None, in_file: object) -> str:
        if env_name and os.environ.get(env_name):
            return env_name
        return "config file" if in_file is not None else "default"

    service, sync = raw.get("service", {}), raw.get("sync", {})
    ui = raw.get("ui", {})
    rows: list[tuple[str, str, str]] = [
        ("config_file", str(path), ENV_CONFIG if os.environ.get(ENV_CONFIG) else "default"),
        ("data_dir", str(config.data_dir), origin(ENV_DATA_DIR, raw.get("data_dir"))),
        (
            "service.base_url",
            redact_url(config.base_url),
            origin(ENV_BASE_URL, service.get("base_url")),
        ),
        (
            "service.api_key",
            *_key_row(config.api_key, config.key_source, config.api_key_cmd, config.use_keyring),
        ),
        ("ui.theme", config.theme, origin(None, raw.get("ui", {}).get("theme"))),
        ("ui.start_screen", config.start_screen, origin(None, ui.get("start_screen"))),
        (
            "ui.cold_after_days",
            str(config.cold_after_days),
            origin(None, ui.get("cold_after_days")),
        ),
        ("ui.work_days", describe_work_days(config.work_days), origin(None, ui.get("work_days"))),
        ("sync.concurrency", str(config.flush_concurrency), origin(None, sync.get("concurrency"))),
        ("sync.undo_seconds", f"{config.undo_seconds:g}", origin(None, sync.get("undo_seconds"))),
        (
            "sync.annotate_late_activities",
            str(config.annotate_late_activities).lower(),
            origin(None, sync.get("annotate_late_activities")),
        ),
    ]
    rows += [
        (f"keys.{binding}", keys, "config file") for binding, keys in sorted(config.keymap.items())
    ]
    unknown = unknown_settings(raw)
    if as_json:
        echo_json(
            {
                "settings": {
                    name: {"value": value, "from": source} for name, value, source in rows
                },
                "unknown": unknown,
            }
        )
    else:
        width = max(len(name) for name, _, _ in rows)
        for name, value, source in rows:
            say(f"{name:<{width}}  {value}  ({source})")
    # the settings it does not read: named by `load_config`, on stderr


def _key_row(
    key: str | None, source: str | None, command: str | None, keyring: bool
) -> tuple[str, str]:
    """The masked key and its source, as `config show` knows it without fetching it."""
    if source == KEY_FROM_ENV and key:
        return mask_key(key), ENV_API_KEY
    if command:
        return "(fetched when needed)", f"api_key_cmd: {command}"
    if keyring:
        return "(in the system keyring)" + (f", else {mask_key(key)}" if key else ""), "keyring"
    if key:
        return mask_key(key), KEY_FROM_FILE
    return "(none: run `warmline key set`)", "none"


@config_group.command("init", epilog=WHERE)
@click.option("--force", is_flag=True, help="Replace an existing file (kept as config.toml.bak).")
def config_init(force: bool) -> None:
    """Write a commented example config file (mode 0600) at `warmline config path`."""
    path = config_path()
    if path.exists() and not force:
        raise CommandError(
            f"{path} already exists; `warmline config init --force` replaces it (keeping a .bak)",
            EXIT_ERROR,
        )
    if path.exists():
        backup = path.with_name(path.name + ".bak")
        try:
            os.replace(path, backup)
            os.chmod(backup, 0o600)
        except OSError as exc:
            raise CommandError(
                f"{path}: cannot be moved aside ({exc.strerror})", EXIT_ERROR
            ) from None
        say(f"Kept the old file as {backup}.", err=True)
    _write(path, EXAMPLE_CONFIG)
    say(f"Wrote {path} (mode 0600). Next: `warmline key set`, then `warmline`.")


def _write(path: Path, text: str) -> None:
    try:
        write_private(path, text)
    except OSError as exc:
        raise CommandError(f"{path}: cannot be written ({exc.strerror})", EXIT_ERROR) from None


SET_HELP = (
    "Set KEY to VALUE in the config file, keeping its comments; checked first.\n\n"
    "\b\nKEY (the part after the dot is enough: `config set theme warmline-light`):\n"
    + "\n".join(f"  {name:<29}  {help_line}" for name, (_, _, help_line) in SETTABLE.items())
)


@config_group.command("set", help=SET_HELP, epilog=EXIT_CODES_HELP)
@click.argument("key")
@click.argument("value")
def config_set(key: str, value: str) -> None:
    name = _setting_name(key)
    _, parse, _ = SETTABLE[name]
    path = config_path()
    try:
        parsed = parse(value)
    except ValueError as exc:
        raise CommandError(f"{name} {exc} (got {value!r})", EXIT_BAD_INPUT) from None
    if name == "service.keyring" and parsed:
        reason = _keyring_or_reason()[1]
        if reason:
            raise CommandError(f"service.keyring cannot be true here: {reason}", EXIT_BAD_INPUT)
    removals: tuple[str, ...] = (name,) if name == "service.api_key_cmd" and not value else ()
    try:
        edit_settings(path, {} if removals else {name: parsed}, removals)
    except OSError as exc:
        raise CommandError(f"{path}: cannot be written ({exc.strerror})", EXIT_ERROR) from None
    say(f"{name} = {'(removed)' if removals else value} in {path}")


@config_group.command("edit", epilog=WHERE)
def config_edit() -> None:
    """Open the config file in $VISUAL or $EDITOR (created from the example if missing),
    then check it."""
    path = config_path()
    if not path.exists():
        _write(path, EXAMPLE_CONFIG)
        say(f"Created {path} from the example.", err=True)
    try:
        click.edit(filename=str(path))
    except click.ClickException as exc:  # no editor found, or it failed
        raise CommandError(f"{exc.message}; set VISUAL or EDITOR", EXIT_ERROR) from None
    raw = _checked(_read_text(path), path)
    unknown = unknown_settings(raw)
    if unknown:
        raise CommandError(
            f"{path}: Warmline does not read {', '.join(setting_hint(name) for name in unknown)}", EXIT_BAD_INPUT
        )
    if "api_key" in raw.get("service", {}):
        problem = key_file_problem(path)
        if problem:
            say(problem, err=True)
    say(f"{path} is fine.")


# --- key ---------------------------------------------------------------------------------------


@click.group("key")
def key_group() -> None:
    """Store the API key, and see where it comes from.

    The key used is the first of: WARMLINE_API_KEY; api_key_cmd in the config file (a
    command that prints it, such as `pass show warmline`); the system keyring (with
    warmline's `keyring` extra); api_key in the config file.
    """


def stdin_is_terminal() -> bool:
    """Whether `key set` asks (a person at a terminal) or reads standard input (a script)."""
    return sys.stdin.isatty()


NO_EXTRA = "the `keyring` extra is not installed"


def _keyring_or_reason() -> tuple[Any, str | None]:
    """The keyring module if it can store the key here, else None and why not."""
    try:
        import keyring  # deferred: command line (an optional extra)
    except ImportError:
        return None, NO_EXTRA
    try:
        backend = keyring.get_keyring()
    except Exception as exc:  # noqa: BLE001 (a broken backend configuration)
        return None, f"no usable keyring ({type(exc).__name__})"
    if type(backend).__module__.startswith(("keyring.backends.fail", "keyring.backends.null")):
        return None, "no system keyring is available here"
    return keyring, None


@key_group.command("set", epilog=EXIT_CODES_HELP)
@click.option(
    "--file",
    "to_file",
    is_flag=True,
    help="Store it in the config file even if a keyring is available.",
)
def key_set(to_file: bool) -> None:
    """Store the API key: asked for without echo at a terminal, else read from standard
    input (`pass show warmline | warmline key set`).

    Kept in the system keyring when warmline's `keyring` extra is installed and a keyring
    is available, else in the config file, which is then made mode 0600.
    """
    if stdin_is_terminal():
        key = click.prompt("API key", hide_input=True, default="", show_default=False)
    else:
        key = sys.stdin.read()
    key = key.strip()
    if not key:
        raise CommandError("no key given; nothing was stored", EXIT_BAD_INPUT)
    if not is_utf8(key) or any(c.isspace() or not c.isprintable() for c in key):
        raise CommandError(
            "an API key is one word of printable characters; nothing was stored", EXIT_BAD_INPUT
        )
    path = config_path()
    keyring, reason = (None, "--file") if to_file else _keyring_or_reason()
    if keyring is not None:
        try:
            keyring.set_password(KEYRING_SERVICE, KEYRING_USER, key)
        except Exception as exc:  # noqa: BLE001 (locked, refused...: fall back to the file)
            keyring, reason = None, f"the keyring refused it ({type(exc).__name__})"
    try:
        if keyring is not None:
            edit_settings(path, {"service.keyring": True}, ("service.api_key",))
            say(
                f"Stored the API key in the system keyring ({KEYRING_SERVICE} / {KEYRING_USER}); {path} says keyring = true."
            )
        else:
            edit_settings(path, {"service.api_key": key}, ("service.keyring",))
            say(f"Stored the API key in {path} (mode 0600).")
            if reason == NO_EXTRA:
                say(
                    f"Not in a keyring: {NO_EXTRA}; add it with: {demo_install_hint('keyring')}",
                    err=True,
                )
            elif reason != "--file":
                say(f"Not in a keyring: {reason}.", err=True)
    except OSError as exc:
        raise CommandError(f"{path}: cannot be written ({exc.strerror})", EXIT_ERROR) from None
    if os.environ.get(ENV_API_KEY):
        say(
            f"Note: {ENV_API_KEY} is set in this environment and wins over the stored key.",
            err=True,
        )
    raw = _checked(_read_text(path), path)
    if raw.get("service", {}).get("api_key_cmd"):
        say("Note: api_key_cmd in the config file wins over the stored key.", err=True)


@key_group.command("show", epilog=EXIT_CODES_HELP)
@click.option(
    "--masked", is_flag=True, help="Masked (the default: the key is never printed whole)."
)
def key_show(masked: bool) -> None:  # accepted for scripts that say so
    """Print the API key in use, masked, and where it comes from (runs api_key_cmd or reads
    the keyring if the config says so)."""
    try:
        config = load_config()
    except ConfigError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None
    if not config.api_key:
        raise CommandError("no API key is configured: run `warmline key set`", EXIT_BAD_INPUT)
    say(f"{mask_key(config.api_key)}  (from {_describe(config.key_source)})")


def _describe(source: str | None) -> str:
    return {
        KEY_FROM_ENV: ENV_API_KEY,
        KEY_FROM_COMMAND: "api_key_cmd in the config file",
        KEY_FROM_KEYRING: f"the system keyring, {KEYRING_SERVICE} / {KEYRING_USER}",
        KEY_FROM_FILE: f"{config_path()}",
    }.get(source or "", "nowhere")


@key_group.command("path")
def key_path() -> None:
    """Print where `warmline key set` stores the key: the keyring entry or the file."""
    keyring, reason = _keyring_or_reason()
    if keyring is not None:
        say(f"system keyring: service {KEYRING_SERVICE}, user {KEYRING_USER}")
    else:
        say(str(config_path()))
        say(f"(the config file: {reason})", err=True)


COMMANDS = [config_group, key_group]
