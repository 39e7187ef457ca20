"""The names the console script dispatches on before click is loaded, and the queue path.

`warmline.launch` picks one of three ways in from `sys.argv` and the environment alone:
plain `warmline` is the cockpit; a call from a shell completion script (`COMPLETE_VAR`
set) or any other argument is the whole command line (`warmline.cli`); and the first
argument one of `QUEUE_COMMANDS` is the queue path. Each name is written here once, for
`warmline.launch` and for the commands that use it (`warmline.commands.completion`,
`warmline.commands.queueing`), since launch must not load click.

The queue path, the one place that explains it. `warmline log` and `warmline note` run
many times a day and from scripts, so they must return at once, online or not (issue 14:
at most 10x `python -c pass`; bench/bench_cli.py). The mechanism:

1. `warmline.launch` sends them straight to `warmline.commands.queueing.main`, with the
   cyclic collector held (never released: the process is over in a moment).
2. That is a top-level group (`warmline.commands.line.CommandLine`, the same class and
   settings as `warmline.cli.main`) holding these two commands only: no other command
   module is loaded, nor the HTTP stack, the service's models, the sync engine, asyncio
   or the terminal UI (tests/test_layering.py, `QUEUE_PATH_LATER`).
3. The command queues the action (one SQLite transaction, as the cockpit does) and hands
   its delivery to a background `warmline sync --send`, started detached
   (`warmline.commands.delivery`: the hand-off, the sender and its lock); `--wait` sends
   in the foreground instead.
4. The process ends with `os._exit` once its output is flushed, skipping the
   interpreter's teardown of every module.
"""

from __future__ import annotations

COMPLETE_VAR = "_WARMLINE_COMPLETE"
"""Set by the shell completion scripts when they call `warmline` back: what click would
name it for a program called `warmline`, named outright so that `python -m warmline`
answers the same scripts."""

QUEUE_COMMANDS = ("log", "note")
"""The first arguments that take the queue path (`warmline.commands.queueing`)."""
