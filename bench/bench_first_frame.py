"""Instructions to the first complete frame: `warmline` against a one-Label Textual app,
counted by valgrind's callgrind (a script, not a timed test).

    .venv/bin/python bench/bench_first_frame.py [--keep DIR]

bench_tui.py measures the first paint in wall-clock time, which on a shared machine varies
by 10% or more between identical copies of the code; a change of a few milliseconds cannot
be seen in it. Callgrind counts the instructions the process executes from its start to
the moment it writes the frame that shows the whole first screen (Today with all its
sections, the lead list with its rows, or "Hello"), the same count run after run whatever
else the machine is doing (two runs of the same tree differ by under 0.1%). So this is the
figure to compare two trees by, and the ratio to read beside bench_tui.py's wall-clock one.

Each app runs under callgrind in a 120x40 tmux terminal, from `python`, so interpreter
start-up, imports, reading the config and opening the cache count, as they do for the rep.
A child mode (`--child`) wraps the app: it watches every frame the app writes and ends the
process (`os._exit`, so callgrind writes its count) at the first complete one.
Needs valgrind and tmux (Debian: `apt-get install valgrind tmux`); about 25 s an app.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b\][^\x07]*\x07")
COMPLETE = {
    "label": ("Hello",),
    "today": ("Next 7 days (", "Failed ops ("),
    "leads": ("sorted by",),
}
"""What the first complete frame of each app shows (as bench_tui.py's `painted` checks)."""


def child(mode: str, out: Path) -> None:
    """Run the app; at the first frame that shows all of `COMPLETE[mode]`, write "done" to
    `out` and end the process at once."""
    if mode != "label":
        # `warmline` holds the collector before it imports Textual (warmline.launch); this
        # wrapper imports Textual first (to watch the frames), so it holds it here as well,
        # or it would count collections during that import that the cockpit never makes.
        from warmline.startup import hold_collection

        hold_collection()
    import textual.app

    shown = textual.app.App._display

    def display(app: textual.app.App[object], screen: object, renderable: object) -> None:
        shown(app, screen, renderable)  # type: ignore[arg-type]
        render = getattr(renderable, "render_segments", None)
        text = ANSI.sub("", render(app.console)) if render is not None else ""
        if all(words in text for words in COMPLETE[mode]):
            out.write_text("done\n")
            os._exit(0)

    textual.app.App._display = display  # type: ignore[method-assign,assignment]
    if mode == "label":
        from textual.widgets import Label

        class OneLabel(textual.app.App[None]):
            def compose(self) -> textual.app.ComposeResult:
                yield Label("Hello")

        OneLabel().run()
    else:
        sys.argv = ["warmline"]
        from warmline.launch import main

        main()


def instructions(mode: str, env: dict[str, str], scratch: Path) -> int:
    """Callgrind's count for one run of `mode` in a fresh tmux terminal."""
    from support.tmux import PrivateTmux  # the parent's alone (see `main`)

    done, counts = scratch / f"{mode}.done", scratch / f"{mode}.callgrind"
    done.unlink(missing_ok=True)
    counts.unlink(missing_ok=True)
    # valgrind logs to a file: the app's stdin, stdout and stderr stay the terminal, which
    # the cockpit checks before it starts (warmline.terminal).
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={counts}",
               f"--log-file={scratch / 'valgrind.log'}",
               sys.executable, __file__, "--child", mode, "--out", str(done)]
    setenv = [arg for name, value in {"TERM": "xterm-256color", **env}.items() for arg in ("-e", f"{name}={value}")]
    with PrivateTmux() as server:
        server.run("new-session", "-d", "-s", "ir", "-x", "120", "-y", "40", *setenv, shlex.join(command), check=True)
        deadline = time.monotonic() + 300
        while not (done.exists() and counts.exists()) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)  # callgrind finishes its file after the app's exit
        found = re.search(r"^summary: (\d+)", counts.read_text() if counts.exists() else "", re.MULTILINE)
        if not done.exists() or found is None:
            log = (scratch / "valgrind.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"{mode}: no complete frame counted within 300 s\n{log}")
        return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", choices=sorted(COMPLETE), help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--keep", type=Path, help="reuse/keep the generated cache in this directory")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.out)
        return
    # The parent's helpers are imported only here: the child counted under callgrind must
    # load nothing but the app. bench_tui imports argparse, asyncio, subprocess and part of
    # Textual; imported by both children, they added the same count to both apps and so
    # pulled the ratio towards 1.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from bench_tui import cache_for, compile_sources, warmline_command

    missing = [tool for tool in ("valgrind", "tmux") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"{' and '.join(missing)} needed (Debian: apt-get install {' '.join(missing)})")
    directory = args.keep or Path(tempfile.mkdtemp(prefix="warmline-bench-"))
    directory.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="warmline-ir-"))
    cache = cache_for(directory, 10_000)
    compile_sources()
    print("Instructions to the first complete frame (callgrind, tmux 120x40, 10,000 cached leads)")
    counts = {"label": instructions("label", {}, scratch)}
    for screen in ("today", "leads"):
        _argv, env, _painted = warmline_command(cache, scratch, screen)
        counts[screen] = instructions(screen, env, scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    label = counts["label"]
    print(f"  one-Label Textual app        {label / 1e6:8.0f} M")
    print(f"  warmline, Today              {counts['today'] / 1e6:8.0f} M   {counts['today'] / label:.2f}x")
    print(f"  warmline, lead list          {counts['leads'] / 1e6:8.0f} M   {counts['leads'] / label:.2f}x")


if __name__ == "__main__":
    main()
