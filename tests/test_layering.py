"""What loads at run time, and the start-up path (docs/architecture.md; warmline/startup.py).

Importing the core loads no Textual; plain `warmline` leaves the command line,
the HTTP stack and the sync engine until after the cockpit's first frame; and an import
inside a function is there for one of the reasons `warmline.startup` explains, and says
which.
"""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import warmline

# Which modules the core may import is the import contracts' job (`[tool.importlinter]` in
# pyproject.toml, run by `./dev test`); this checks what importing the core loads at run time.
CORE_MODULES = [
    "warmline.api", "warmline.ops", "warmline.store", "warmline.sync", "warmline.actions",
    "warmline.config", "warmline.followup_phrases",
]


def test_the_core_does_not_load_textual() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'textual')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_cockpit_does_not_import_sandbox() -> None:
    code = (
        "import importlib, pkgutil, sys, warmline\n"
        "for m in pkgutil.walk_packages(warmline.__path__, 'warmline.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('warmline_sandbox' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# What plain `warmline` leaves until after the first frame (Today's or the lead list's) (warmline/startup.py
# has the figures): the command line (the console script's fast path), and the HTTP stack
# with everything that loads it: the client, the service's models, the scheduler, the sync
# engine, the actions, and the screens that use them; sqlite-utils (bulk writes only).
LATER = [
    "click", "warmline.cli", "warmline.commands",
    "httpx", "pydantic", "apscheduler", "warmline.api", "warmline.sync", "warmline.actions",
    "sqlite_utils",
    # The week in review: Today's Monday row only tests the weekday; the screen loads it.
    "warmline.review", "warmline.store.review", "warmline.tui.screens.review",
]


COCKPIT = "warmline.launch, warmline.cockpit, warmline.config, warmline.store, warmline.tui.app"


def loaded_of(watched: list[str], imports: str) -> list[str]:
    """Which of `watched` a fresh interpreter has loaded after `import {imports}`."""
    code = (
        "import json, sys\n"
        f"import {imports}\n"
        f"print(json.dumps(sorted(m for m in {watched!r} if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(out.stdout)
    return loaded


def test_the_cockpit_start_up_path_leaves_the_heavy_modules_for_later() -> None:
    imports = f"{COCKPIT}, warmline.tui.screens.lead_list, warmline.tui.screens.today"
    assert loaded_of(LATER, imports) == []


# Today, the default start screen, draws with the Line API and names jobs with the job
# monitor's words only (warmline/startup.py, point 2): the screens its rows and keys open,
# and the DataTable the other tables use, load when first used.
TODAY_LATER = [
    "textual.widgets._data_table", "warmline.tui.widgets.tables", "warmline.tui.screens.jobs",
    "warmline.tui.screens.lead_list", "warmline.tui.screens.help", "warmline.tui.screens.first_run",
    "warmline.tui.screens.follow_up_dialogs", "warmline.tui.context", "webbrowser",
]


def test_today_start_up_path_leaves_the_other_screens_for_later() -> None:
    assert loaded_of([*LATER, *TODAY_LATER], f"{COCKPIT}, warmline.tui.screens.today") == []


# The reasons an import may sit inside a function, explained in warmline/startup.py. The
# import says which, on its line or on a comment line just above its group of imports:
# `# deferred: first frame (why)`.
DEFERRED = re.compile(r"#\s*deferred:\s*(first frame|command line|sandbox)\b")


def imports_without_a_reason(source: str) -> list[int]:
    """The line numbers of the imports inside functions that do not say why they are there."""
    lines = source.splitlines()
    missing: list[int] = []

    def check(body: list[ast.stmt]) -> None:
        for index, node in enumerate(body):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            first = index
            while (first > 0 and isinstance(body[first - 1], (ast.Import, ast.ImportFrom))
                   and body[first - 1].end_lineno == body[first].lineno - 1):
                first -= 1
            above = lines[body[first].lineno - 2] if body[first].lineno > 1 else ""
            said = DEFERRED.search(lines[node.lineno - 1]) or (above.strip().startswith("#") and DEFERRED.search(above))
            if not said:
                missing.append(node.lineno)

    for function in ast.walk(ast.parse(source)):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                for field in ("body", "orelse", "finalbody", "handlers"):
                    block = getattr(node, field, None)
                    if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                        check(block)
    return sorted(set(missing))


def test_every_import_inside_a_function_says_why() -> None:
    root = Path(warmline.__file__).parent
    unexplained = [
        f"{path.relative_to(root.parent)}:{line}: {path.read_text(encoding='utf-8').splitlines()[line - 1].strip()}"
        for path in sorted(root.rglob("*.py"))
        for line in imports_without_a_reason(path.read_text(encoding="utf-8"))
    ]
    assert unexplained == [], "move these to the top of the module, or say why not (warmline/startup.py)"


def test_an_import_without_a_reason_is_noticed() -> None:
    source = (
        "def f():\n"
        "    # deferred: first frame (the dialogs load the actions)\n"
        "    from a import b\n"
        "    from a import c\n"
        "    import d  # deferred: command line\n"
        "    x = 1\n"
        "    import e\n"
        "    import g  # deferred: because I like it\n"
        "    if x:\n"
        "        # a comment, but no reason\n"
        "        import h\n"
        "import top\n"
    )
    assert imports_without_a_reason(source) == [7, 8, 11]


# What `warmline log` and `warmline note` never load (the queue path, warmline/dispatch.py): they
# queue one action and hand the send to a background `warmline sync --send`, so neither the
# HTTP stack nor the engine, an event loop, the rest of the command line or the terminal UI.
# Issue 14: at most 10x `python -c pass` (bench/bench_cli.py).
QUEUE_PATH_LATER = [
    "httpx", "pydantic", "apscheduler", "sqlite_utils", "textual", "rich", "asyncio", "email",
    "warmline.api.client", "warmline.api.models", "warmline.sync", "warmline.cli", "warmline.cockpit",
    "warmline.commands.sync", "warmline.commands.leads", "warmline.commands.outbox",
    "warmline.commands.jobs", "warmline.commands.search", "warmline.commands.research",
    "warmline.commands.companies", "warmline.commands.contacts", "warmline.commands.outreach",
    "warmline.commands.records", "warmline.commands.demo", "warmline.commands.sandbox",
]


def test_the_queue_path_leaves_the_heavy_modules_alone(tmp_path: Path) -> None:
    """The console script run as `warmline log` and `warmline note` (the command's own
    deferred imports included), against a cache with one lead, nothing sent."""
    code = (
        "import json, os, sys\n"
        "from warmline.launch import main\n"
        "def stay(code):\n"  # the command ends its process with os._exit: stay to look
        "    raise SystemExit(code)\n"
        "os._exit = stay\n"
        "for command in ('log', 'note'):\n"
        "    sys.argv = ['warmline', command, '1', 'Called', '--json']\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as exc:\n"
        "        assert not exc.code, exc.code\n"
        f"print(json.dumps(sorted(m for m in {QUEUE_PATH_LATER!r} if m in sys.modules)))\n"
        "print(json.dumps('warmline.actions' in sys.modules and 'warmline.store' in sys.modules))\n"
    )
    setup = (
        "from warmline.store import Store\n"
        "store = Store(__import__('sys').argv[1])\n"
        "store.upsert_leads([{'id': 1, 'company_name': 'Acme'}])\n"
        "store.close()\n"
    )
    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "WARMLINE_DATA_DIR": str(data), "WARMLINE_API_KEY": "k",
           "WARMLINE_CONFIG": str(tmp_path / "none.toml"), "WARMLINE_NO_DETACH": "1"}
    subprocess.run([sys.executable, "-c", setup, str(data / "cache.sqlite3")], env=env, check=True)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    *_, loaded, queued_it = out.stdout.splitlines()
    assert json.loads(loaded) == []
    assert json.loads(queued_it) is True  # the path did run: the action and the cache were loaded
