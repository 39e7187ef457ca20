"""What Warmline does to start fast, and nothing else does: the one place that explains it.

The rep opens the cockpit many times a day, so plain `warmline` is measured from launch to
its start screen (Today; or the lead list) on screen, against a one-Label Textual app
(bench/bench_tui.py, 10,000 cached leads; target 1.2x). Each measure below stays because
removing it moved that figure beyond noise. The figures of points 1 to 7 are the change in
the process's CPU time at its first frame without the measure, from copies of the tree
that differ in that one measure only, run turn by turn, 25 times each, in two runs (the
median; the wall-clock first paint of a shared machine varies by 10% between identical
copies, its CPU time by a few ms). Later ones are callgrind's count of instructions to
the first complete frame (bench/bench_first_frame.py), which repeats to 0.1% on a busy
machine.

1. The console script's fast path (`warmline.launch`): plain `warmline` opens the cockpit
   without importing click and the command line; anything with arguments is the command
   line, which never imports the terminal UI.
2. After the first frame (`# deferred: first frame`): the sync engine is built by the app
   in a thread once the lead list is drawn (`warmline.cockpit`), and the modules that load
   the HTTP stack (httpx, pydantic, APScheduler: the API client, the actions, the screens
   that use them, the keyboard reference) are imported when first used. Importing them
   before the first frame: +280 ms (2x the one-Label app instead of 1.2x). sqlite-utils,
   used only for bulk writes, loads on first use too: +50 to +60 ms. The week in review
   (`warmline.review`, its screen and its store reads) loads when the screen opens: Today's
   Monday row is a weekday test, no read. So do the screens Today does not show (the lead
   list unless it is the start screen, the job monitor, help, first run: -16 M
   instructions of ~1,250 M to Today's first frame, bench/bench_first_frame.py) and
   Textual's `DataTable`.
   tests/test_layering.py (`LATER`, `TODAY_LATER`) keeps these off the first-frame path.
3. The collector waits (`hold_collection`, `release_collection`): everything allocated
   before the first frame (modules, classes, styles, the screen) lives as long as the
   process, yet Python's cyclic collector walks it again and again while it grows. So
   `warmline` holds collection while it starts; the app releases it once its first frame
   is drawn, freezing what exists then so that later collections skip it too. Reference
   counting frees everything else meanwhile; only cycles wait those few hundred ms.
   Without it: +20 to +28 ms.
4. Records are named tuples (`warmline.store.rows`, and the cockpit's few): a frozen
   dataclass costs about 1 ms to define, and 24 records are defined before the first
   frame. As dataclasses: +23 to +35 ms. The same holds for the op specs and their
   effect values (`warmline.ops.specs`, `.effects`, `.confirmation`), which `warmline log`
   loads: as frozen dataclasses they took 5 ms of its ~110 (0.46 ms to define each, a
   named tuple 0.07 ms). And they are `warmline.named_tuple.NamedTuple`s: typing's class
   syntax, with one shared `__new__` instead of one compiled per class and annotations
   kept as written, about a fifth of typing's cost to define (-16 M instructions
   to Today's first frame, 1.20x to 1.18x of the one-Label app). Before it, the modules
   that define records before the first frame went without `from __future__ import
   annotations`, because typing compiled each string annotation into a `ForwardRef`
   (-14 M then); that no longer matters, and they are left as they were.
5. The command line (`# deferred: command line`): a command imports the HTTP stack only
   when it talks to the service or queues an action, so `warmline --help` and the commands
   that read the cache start in a third of the time (250 ms of CPU instead of 700); and a
   command never imports the terminal UI unless it opens the cockpit.
6. The reference server (`# deferred: sandbox`): `warmline_sandbox` (FastAPI, uvicorn) is
   imported only by `warmline sandbox`, never by the app (tests/test_layering.py).
7. The queue path (issue 14; bench/bench_cli.py, goal 10x `python -c pass`): `warmline
   log` and `warmline note` queue the action and hand the send to a detached `warmline
   sync --send`; `warmline.dispatch` explains the mechanism. They load no HTTP client,
   models, engine, asyncio or other command module: the exports of `warmline.api` load
   on first use, and `api.errors` imports `email.utils` and the store `hashlib` where
   they are needed (`# deferred: command line`). tests/test_layering.py
   (`QUEUE_PATH_LATER`) pins it. Before: 0.5 to 0.6 s, 36 to 50x `python -c pass`, most
   of it importing httpx, pydantic and APScheduler and the quick send; the figures after
   are in docs/cli.md.
8. The first screen draws with the Line API: Today's rows (and the agenda's, search's and
   people's, which look the same) are a `SectionList`, a `VirtualList` over rows in
   memory, not a `DataTable`, whose cell rendering was 57 M instructions of Today's first
   frame.
9. The theme is set before the app runs without Textual's refresh of the CSS
   (`WarmlineApp._start_with_theme`): the refresh parsed every stylesheet a second time
   before the first frame (-25 M instructions). Textual's own `__init__` asks for its
   default theme's variables first; the app answers none until its theme is set
   (`WarmlineApp.get_css_variables`), so the colour system is built once (-7 M).
10. What the first frame does not use stays out of it, and what it shows uses fewer of
   Textual's nodes and styles (-65 M instructions together; with point 9's last part,
   Today went from 1,189 M to 1,118 M, each step measured alone):
   - `warmline.textsafe`'s patterns are strings that `re` compiles on first use, and
     printable text needs none of them (-19 M, with `webbrowser`, loaded by a link);
   - the follow-up dialogs load when one opens (`follow_up_actions` holds the keys), and
     the `Cockpit` protocols are for typing only (`warmline.tui.held` holds what the app
     needs at run time) (-9 M);
   - a rule of `cockpit.tcss` costs about 0.2 M instructions to parse: a screen's own rules
     live with it (`record_page.tcss`, the lead list's DEFAULT_CSS) (-5 M);
   - the status line's colours and the key bar's keys are `Content` styles, not component
     classes, whose styles Textual builds before the first frame (-4 M);
   - the status line and the key bar are docked at the bottom themselves, not in a
     container: a node and its styles cost ~8 M (-11 M);
   - the dialogs' base class (`dialog_screen`) is apart from the screens' (-2 M);
   - what a queued action does locally (`warmline.store.effects`) loads with the first
     write (-10 M), and the records of a lead's page (`warmline.store.lead_page`) with
     that page (-5 M).
   What is left of the gap to the one-Label app is spread thin: the standard library
   modules it needs (tomllib, zoneinfo, json, sqlite3), unmarshalling our modules, the
   classes of our widgets and screens, and Textual's work for our stylesheets and nodes.

An import inside a function is there for one of the reasons 2, 5, 6, 7 or 10 and says which on
its line or on a comment just above (`# deferred: first frame`, `command line`, `sandbox`);
every other import is at the top of its module (tests/test_layering.py).

Measured and dropped, for no gain beyond noise (two identical copies differ by up to 5 ms
in the median): a `sys.modules` stand-in for httpx's own command line, which
kept click, Pygments and Rich from loading with httpx (-1 to +5 ms on the first frame;
it did save about 70 ms of CPU on each command that loads the HTTP stack); importing the
palette's provider and `webbrowser` on first use (3 to 8 ms with the help and first-run
screens, which now load on first use as point 2 says: counted in instructions, the gain
that CPU time could not show was plain); and a list without a reserved scrollbar column
(-1.4 M). Point 9 was once measured and dropped in CPU time too (-4 to +9 ms); counted in
instructions it is 2% of the first frame. And a 1 ms thread switch interval until the first
frame is drawn (`sys.setswitchinterval`), tried twice. Textual's writer thread waits for
the interpreter's lock while the main thread works on after the first frame (Textual lays
the screen out again for each of the terminal's two size reports, which the one-Label app
mounts fast enough to merge; leaving out our own work then, the sync start, the cache
check and the list's first cursor message, did not shorten the wait): 4.2 ms from
the frame handed over to its bytes written (the one-Label app: ~2 ms), 1.8 ms with the
short interval (ten launches each). Yet the whole first paint got slower, not faster: on
a machine with other work (load 2.4), Today's median went from 233 and 236 ms to 309 and
301 ms (bench_tui.py, two rounds, head and patched in turn). Most likely because a thread
made to drop the lock waits until the other thread has taken it, which on busy cores can
be a whole scheduler slice, and a 1 ms interval forces such drops far more often. Not
worth trying again.
"""

from __future__ import annotations

import gc


def hold_collection() -> None:
    """Pause cyclic garbage collection until `release_collection`."""
    gc.disable()


def release_collection() -> None:
    """If collection is held: move everything alive now out of the collector's reach, and
    collect as usual again. Otherwise (an app run by tests, say) leave it alone."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
