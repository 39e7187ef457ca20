"""Where Warmline writes down what it did: a rotating log file, and warnings on stderr.

A rep who asks support why an op failed an hour ago needs a record of what sync sent and
got; the screen is no place for it (the cockpit owns the terminal) and neither is stderr of
a command run from a script. So every process logs to one file, `warmline.log` in the
platform's user log directory (`platformdirs.user_log_dir`; `WARMLINE_LOG_DIR` overrides),
rotated at 1 MB with 3 older files kept, UTF-8, readable by its owner only: the directory
is 0700 (made so, or tightened when it is ours; one that is a symbolic link is refused)
and the file is opened with O_NOFOLLOW, so nobody else chooses where it is written. A file
that stops being writable (a full disk) costs one warning line, and logging stops.

What goes in: one line per request and answer (method, path, status, time taken, the op
id it carries) from `warmline.api`, one line per op settled by `warmline.sync` (delivered,
retried when and why, failed and why), the engine's state changes and errors. Never the API
key: every line is scrubbed of the keys this process uses (`hide`) and of URL user-info
(`config.redact_url`), stripped of terminal controls (`textsafe`), and bounded in length.
Bodies only at debug level (`--debug` or `WARMLINE_LOG=debug`), cut to a bound.

The command line keeps printing warnings on stderr (`TerminalLog`); the cockpit logs to the
file only, since anything on stderr would be drawn over its screen.

Only the standard library's `logging` is loaded here: `logging.handlers` (socket, pickle...)
is imported at the first line actually written, so a command that logs nothing pays nothing.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import platformdirs

from warmline.config import APP_NAME
from warmline.textsafe import redact_url, terminal_line, terminal_text

ENV_LOG = "WARMLINE_LOG"
ENV_LOG_DIR = "WARMLINE_LOG_DIR"
LOG_FILE = "warmline.log"
MAX_BYTES = 1024 * 1024
BACKUPS = 3
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}
DEFAULT_LEVEL = logging.INFO

MAX_MESSAGE = 4000
"""Characters of one log message kept: a server's message is quoted, never its whole body
(at debug level the client's own bound on bodies, `api.client.MAX_LOGGED_BODY`, comes first)."""
MAX_TRACEBACK = 8000

LOGGER = "warmline"
# Other libraries' loggers whose warnings belong in the file (a scheduled job that raised
# or missed its time; a run skipped by design is filtered out, `warmline.sync.engine`);
# their chatter below that does not.
THIRD_PARTY = ("apscheduler",)

_secrets: set[str] = set()
_chosen: list[int] = []  # the level of the last `configure`, for `keep_level`


def log_dir(env: Mapping[str, str] | None = None) -> Path:
    """The directory of the log file: `WARMLINE_LOG_DIR`, else the platform's user log dir
    (Linux `~/.local/state/warmline/log`, macOS `~/Library/Logs/warmline`, Windows
    `%LOCALAPPDATA%\\warmline\\warmline\\Logs`)."""
    env = os.environ if env is None else env
    override = env.get(ENV_LOG_DIR)
    return Path(override).expanduser() if override else Path(platformdirs.user_log_dir(APP_NAME))


def log_path(env: Mapping[str, str] | None = None) -> Path:
    """The current log file (older ones beside it: `warmline.log.1` ... `.3`)."""
    return log_dir(env) / LOG_FILE


def hide(secret: str | None) -> None:
    """Never write `secret` (an API key this process uses) to the log, whatever quotes it."""
    if secret and len(secret) >= 4:
        _secrets.add(secret)


def scrub(text: object) -> str:
    """`text` with every hidden secret masked as whole tokens and URL user-info redacted."""
    result = redact_url(text)
    for secret in _secrets:
        if secret in result:
            result = re.sub(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", "********", result)
    return result


def bounded(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


class SafeFormatter(logging.Formatter):
    """One line per record (a traceback follows on its own lines): UTC time, process id,
    level, logger, message; scrubbed, terminal-safe and bounded."""

    converter = staticmethod(time.gmtime)  # UTC: the rep's and support's clocks differ

    def __init__(self) -> None:
        super().__init__(
            "%(asctime)s.%(msecs)03dZ %(process)d %(levelname)s %(name)s: %(message)s",
            datefmt="%Y-%m-%dT%H:%M:%S",
        )

    def format(self, record: logging.LogRecord) -> str:
        record.message = bounded(terminal_line(scrub(record.getMessage())), MAX_MESSAGE)
        record.asctime = self.formatTime(record, self.datefmt)
        line = self.formatMessage(record)
        if record.exc_info:
            trace = self.formatException(record.exc_info)
            line += "\n" + bounded(terminal_text(scrub(trace)), MAX_TRACEBACK)
        return line


NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
"""Opening the log never follows a symbolic link: one planted at its name (or swapped in
between the check and the write) would have Warmline append to the file it points at."""


def open_log(path: Path) -> int:
    """A descriptor appending to the log file, created 0600; never through a symbolic link
    (ELOOP) and never anything but a regular file (a FIFO would block the command)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | NOFOLLOW | getattr(os, "O_NONBLOCK", 0), 0o600)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if os.name != "nt" and status.st_mode & 0o077:
            os.fchmod(descriptor, 0o600)
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _rotating_file(path: Path) -> logging.Handler:
    """The standard rotating handler, but opening through `open_log` and letting a failed
    write raise to `LogFile` instead of printing `--- Logging error ---` and a traceback
    for every record (1,638 lines for one `--debug sync` on a full disk)."""
    # logging.handlers loads socket, pickle...: only a process that writes a line needs it.
    from logging.handlers import RotatingFileHandler  # deferred: command line

    class Rotating(RotatingFileHandler):
        def _open(self) -> Any:
            return os.fdopen(open_log(Path(self.baseFilename)), "a", encoding="utf-8", errors="replace")

        def handleError(self, record: logging.LogRecord) -> None:  # logging's name
            raise  # called inside logging's own `except`: to LogFile.emit

    return Rotating(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)


class LogFile(logging.Handler):
    """The rotating log file, opened at the first record: `logging.handlers` and the file
    cost nothing in a process that logs nothing. A file that cannot be written (the disk
    filled up, a symbolic link appeared at its name) is given up at the first failure, with
    one warning line through `warn` (stderr for the command line; nothing in the cockpit,
    whose screen it would land on), never a traceback."""

    def __init__(self, path: Path, level: int, warn: Callable[[str], None] | None = None) -> None:
        super().__init__(level)
        self.path = path
        self._file: logging.Handler | None = None
        self._broken = False
        self._warn = warn
        self.setFormatter(SafeFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        if self._broken:
            return
        try:
            if self._file is None:
                self._file = _rotating_file(self.path)
                self._file.setFormatter(self.formatter)
            self._file.emit(record)
        except Exception:  # noqa: BLE001 (logging must never fail the command or the cockpit)
            self.handleError(record)

    def handleError(self, record: logging.LogRecord) -> None:  # logging's name
        """Stop writing, say so once; never print a traceback."""
        if self._broken:
            return
        self._broken = True
        why = _why(sys.exc_info()[1])
        if self._warn is not None:
            with contextlib.suppress(Exception):
                self._warn(f"cannot write the log file {terminal_line(self.path)} ({why}); logging stopped")
        if self._file is not None:
            with contextlib.suppress(Exception):
                self._file.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        super().close()


class TerminalLog(logging.Handler):
    """Warnings (an unexpected error delivering an op...) on stderr for the command line, as
    Python's last-resort handler prints them, but terminal-safe and redacted: the message and
    its traceback may quote the service."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(terminal_text(scrub(self.format(record))) + "\n")
        except Exception:  # noqa: BLE001 (logging must never fail the command)
            self.handleError(record)


def chosen_level(
    debug: bool = False, env: Mapping[str, str] | None = None
) -> tuple[int, str | None]:
    """The file's level: debug with `--debug`, else `WARMLINE_LOG`, else info; and a warning
    when `WARMLINE_LOG` names no level."""
    env = os.environ if env is None else env
    if debug:
        return logging.DEBUG, None
    name = env.get(ENV_LOG, "").strip().lower()
    if not name:
        return DEFAULT_LEVEL, None
    if name in LEVELS:
        return LEVELS[name], None
    return (
        DEFAULT_LEVEL,
        f"{ENV_LOG}={terminal_line(name)!r} is not one of debug, info, warning; logging at info",
    )


def configure(
    *,
    debug: bool = False,
    terminal: bool = True,
    keep_level: bool = False,
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """Send the `warmline` loggers to the log file (and warnings to stderr when `terminal`).

    Called by the command line at every start, and by the cockpit before it opens with
    `terminal=False` (nothing but the file while the terminal UI runs) and `keep_level`
    (`warmline --debug` opening the cockpit stays at debug). A second call replaces what the
    first installed. Returns the warning lines for the caller to print: a log directory that
    cannot be written, a bad `WARMLINE_LOG`; the command goes on either way.
    """
    level, problem = chosen_level(debug, env)
    warnings = [problem] if problem else []
    if keep_level and _chosen:
        level = _chosen[-1]
    _chosen[:] = [level]
    logger = logging.getLogger(LOGGER)
    for owner in (logger, *(logging.getLogger(name) for name in THIRD_PARTY)):
        for handler in list(owner.handlers):
            if isinstance(handler, LogFile | TerminalLog) or (
                owner is logger and type(handler) is logging.NullHandler
            ):
                owner.removeHandler(handler)
                handler.close()
    # Records below the level never reach a handler; the null handler keeps Python's
    # last-resort one (stderr) away when there is no file.
    logger.setLevel(level)
    logger.addHandler(logging.NullHandler())
    if terminal:
        logger.addHandler(TerminalLog(logging.WARNING))
    path = log_path(env)
    failure = _prepare(path)
    if failure is not None:
        return [
            *warnings,
            f"cannot write the log file {terminal_line(path)} ({failure}); nothing is logged",
        ]
    file = LogFile(path, level, _stderr_warning if terminal else None)
    file.addFilter(_ours_or_warning)
    logger.addHandler(file)
    for name in THIRD_PARTY:
        logging.getLogger(name).addHandler(file)
    return warnings


def _ours_or_warning(record: logging.LogRecord) -> bool:
    return (
        record.name == LOGGER
        or record.name.startswith(LOGGER + ".")
        or record.levelno >= logging.WARNING
    )


def _stderr_warning(text: str) -> None:
    """The command line's one line about a log file that stopped being writable."""
    sys.stderr.write(f"Warning: {terminal_line(text)}\n")


def _prepare(path: Path) -> str | None:
    """Make the log directory private (0700: created so, or tightened when it is ours) and
    the file (0600, `open_log`); why not, if they cannot be. A directory that is a symbolic
    link is refused: whoever could replace it would choose where the log is written."""
    directory = path.parent
    try:
        if directory.is_symlink():
            return "its directory is a symbolic link"
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name != "nt":
            mode = stat.S_IMODE(os.lstat(directory).st_mode)
            if mode & 0o077:
                os.chmod(directory, 0o700)  # tighten; not ours: PermissionError
        os.close(open_log(path))
    except OSError as exc:
        return _why(exc)
    return None


def _why(error: BaseException | None) -> str:
    """A failure to open or write the log, in a few words ("No space left on device")."""
    if isinstance(error, OSError) and error.errno == errno.ELOOP:
        return "it is a symbolic link"  # O_NOFOLLOW met one
    return getattr(error, "strerror", None) or (type(error).__name__ if error is not None else "failed")
