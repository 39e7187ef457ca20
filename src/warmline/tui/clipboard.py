"""Copying text to the system clipboard with the platform's own command, when there is one.

Textual's `copy_to_clipboard` writes OSC 52, which the terminal may ignore (macOS Terminal,
iTerm2 by default, tmux without `set-clipboard`), and the cockpit cannot tell. So the
cockpit first hands the text to the command the desktop provides (wl-copy, xclip, xsel,
pbcopy, clip.exe) found on PATH: that needs nothing installed by Warmline (a library such
as pyperclip runs these same commands on Linux and macOS), and its exit code says whether
it worked. A command is only tried where it can reach the rep's clipboard: wl-copy with a
Wayland display, xclip/xsel with an X display (also one forwarded over SSH), pbcopy and
clip.exe outside SSH (over SSH they would fill the remote machine's clipboard).

What is copied is pasted later, often into a shell, so every copy goes through
`clipboard_text` first, and a link only through `web_link`: an escape sequence in a copied
URL (`ESC[201~`, the end of a bracketed paste) followed by a CR and a command would run
that command when pasted into bash.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit

from warmline.textsafe import terminal_line, terminal_text

COPY_TIMEOUT = 2.0
"""Seconds a copy command may take before the cockpit falls back to OSC 52."""

Copier = Callable[[str], bool]
"""Puts text on the system clipboard; False when it could not."""

OSC52_NOTE = "sent to the terminal's clipboard (OSC 52); if nothing was copied, your terminal may not allow it"
"""What the cockpit says when only OSC 52 carried a copy: it cannot tell whether it worked."""


def clipboard_text(text: object, *, multiline: bool = False) -> str:
    """`text` as it may go onto a clipboard: no escape sequence (the bracketed-paste end
    `ESC[201~` among them), no CR and no other control character, so a paste cannot leave
    bracketed-paste mode or run a line. One-line text (a link, a name) loses its line
    breaks too; multi-line text (a suggested comment) keeps LF, which a paste inside
    bracketed-paste mode types literally. The same rules as the screen (`warmline.textsafe`)."""
    return terminal_text(text) if multiline else terminal_line(text)


def web_link(url: object) -> str | None:
    """`url` cleaned for opening or copying, or None unless it is an http(s) link with a
    host *after* cleaning: a `file:` or `javascript:` URL from the service is neither opened
    nor copied, and a link that only looks like one once its controls are gone is judged as
    what would be pasted."""
    if not isinstance(url, str):
        return None
    clean = clipboard_text(url).strip()
    if " " in clean:
        return None
    try:
        parsed = urlsplit(clean)
    except ValueError:  # an unbalanced IPv6 bracket
        return None
    return clean if parsed.scheme.lower() in ("http", "https") and parsed.netloc else None


def copy_commands(
    env: Mapping[str, str] | None = None, which: Callable[[str], str | None] = shutil.which
) -> list[list[str]]:
    """The copy commands to try, in order, for this session (those on PATH that can reach
    the rep's clipboard)."""
    env = os.environ if env is None else env
    remote = bool(env.get("SSH_CONNECTION") or env.get("SSH_TTY"))
    candidates: list[tuple[bool, list[str]]] = [
        (bool(env.get("WAYLAND_DISPLAY")), ["wl-copy"]),
        (bool(env.get("DISPLAY")), ["xclip", "-selection", "clipboard"]),
        (bool(env.get("DISPLAY")), ["xsel", "--clipboard", "--input"]),
        (not remote, ["pbcopy"]),
        (not remote, ["clip.exe"]),
    ]
    commands = []
    for usable, command in candidates:
        found = which(command[0]) if usable else None
        if found:
            commands.append([found, *command[1:]])
    return commands


def _encoded(command: list[str], text: str) -> bytes:
    # clip.exe reads UTF-16 with a byte order mark; the others read UTF-8
    if os.path.basename(command[0]).lower() == "clip.exe":
        return text.encode("utf-16")
    return text.encode("utf-8")


def system_copy(
    text: str, commands: list[list[str]] | None = None, timeout: float = COPY_TIMEOUT
) -> bool:
    """Put `text` on the system clipboard with the first command that succeeds; False when
    none is available or all failed. It blocks (up to `timeout` per command): call it off
    the event loop.

    Output goes to /dev/null: xclip and wl-copy leave a process behind to serve the
    clipboard, which would hold a captured pipe open until the timeout.
    """
    for command in copy_commands() if commands is None else commands:
        try:
            done = subprocess.run(  # a fixed command found on PATH, the text on stdin
                command,
                input=_encoded(command, text),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=timeout,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return True
    return False
