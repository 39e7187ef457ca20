"""Bad local state and bad bytes, through the real command line (`python -m warmline` in a
subprocess): a cache that is not SQLite, truncated, or with a page overwritten; the cache
path a directory; the data dir a file, unreadable or read-only; a config file that is not
UTF-8; ids of 2^63 and more; arguments that are not UTF-8.

Every run must end without a traceback, with a documented exit code (docs/cli.md: 5 for
a cache that cannot be used, 2 for bad input), in one `Error:` line naming the problem,
and must leave the broken cache byte for byte as it was and the queued action that was
in the good cache queued, alone and unchanged.

The commands come from the click tree: a command added without a sample here fails
`test_every_command_has_a_sample`. Each bad state runs a core set (the cockpit, `leads`,
`log`, `outbox`) and a share of the other commands, so that every command meets some
bad cache; the runs go two at a time.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest

from support.damage import overwrite_page, root_page
from warmline.cli import main
from warmline.store import Store

pytestmark = pytest.mark.slow  # a few hundred `warmline` processes

BIG = str(2**63)
BAD = os.fsdecode(b"ab\xffcd")  # how Python hands over argv bytes that are not UTF-8
CLOSED_PORT_URL = "http://127.0.0.1:9"
RUN_TIMEOUT = 60.0  # a cap on a hung run, not a timing assertion
DOCUMENTED = {0, 1, 2, 3, 4, 5}
LEAD = "900"
NOT_LOCAL = {("sandbox",), ("demo",), ("completion",)}  # never open the configured cache
NOT_LOCAL |= {("cache", "path"), ("cache", "reset")}  # say where it is, move it aside: test_cli_cache.py
NOT_LOCAL |= {("logs",)}  # reads the log file only: test_cli_logs.py
NOT_LOCAL |= {("web",)}  # serves cockpits, each opens the cache as plain `warmline` does: tests/web
NOT_LOCAL |= {("service", "check")}  # asks the service only: test_cli_service_check.py
NOT_LOCAL |= {("config", c) for c in ("path", "show", "init", "set", "edit")}  # test_cli_config.py
NOT_LOCAL |= {("key", c) for c in ("set", "show", "path")}
# The follow-ups' own file, not the cache (`followups add` reads the lead from the cache: sampled).
NOT_LOCAL |= {("followups",), *(("followups", c) for c in ("done", "snooze", "delete"))}  # test_cli_followups.py

SAMPLES: dict[tuple[str, ...], list[str]] = {
    (): [],  # the cockpit
    ("cache", "adopt"): [],
    ("companies",): [],
    ("companies", "create"): ["--set", "name=Acme"],
    ("companies", "delete"): ["5", "--yes"],
    ("companies", "edit"): ["5", "--set", "name=Acme"],
    ("companies", "fields"): [],
    ("companies", "research"): ["5", "--focus", "pricing"],
    ("companies", "show"): ["5"],
    ("companies", "tags"): ["5"],
    ("contacts", "add"): ["1", "2"],
    ("contacts", "create"): ["--set", "first_name=Dana"],
    ("contacts", "delete"): ["5", "--yes"],
    ("contacts", "edit"): ["5", "--set", "first_name=Dana"],
    ("contacts", "fields"): [],
    ("contacts", "found"): ["1"],
    ("contacts", "list"): ["--search", "dana"],
    ("contacts", "search"): ["5"],
    ("contacts", "show"): ["5"],
    ("contacts", "tags"): ["5"],
    ("deep-search",): ["dental clinics"],
    ("export",): ["leads"],
    ("followups", "add"): [LEAD, "friday", "Send pricing"],
    ("jobs",): [],
    ("lead",): [LEAD],
    ("leads",): [],
    ("log",): [LEAD, "Called Dana"],
    ("lookup",): ["--query", "logistics"],
    ("note",): [LEAD, "Budget approved"],
    ("outbox",): [],
    ("outbox", "discard"): ["deadbeef"],
    ("outbox", "retry"): ["deadbeef"],
    ("outreach", "add"): ["5", "--as", "cold"],
    ("outreach", "competitor-add"): [LEAD, "Rival"],
    ("outreach", "competitor-pin"): [LEAD, "3"],
    ("outreach", "competitor-scan"): [LEAD, "3"],
    ("outreach", "complete"): ["7"],
    ("outreach", "deal"): [LEAD, "--currency", "EUR"],
    ("outreach", "dismiss"): ["7"],
    ("outreach", "generate"): [LEAD],
    ("outreach", "pin"): [LEAD, "4"],
    ("outreach", "recs"): [LEAD],
    ("outreach", "remove"): [LEAD, "--yes"],
    ("outreach", "scan"): [LEAD],
    ("outreach", "scan-status"): [LEAD],
    ("outreach", "source"): [LEAD, "2", "on"],
    ("outreach", "status"): [LEAD, "warm"],
    ("outreach", "target"): [LEAD, "80"],
    ("report", "range"): ["--from", "2026-11-16", "--to", "2026-11-22", "--format", "csv"],
    ("report", "week"): ["--format", "json"],
    ("research", "run"): ["1", "5"],
    ("research", "show"): ["1"],
    ("research", "templates"): ["--no-refresh"],
    ("search",): ["dana"],
    ("sync",): ["--once"],
    ("today",): [],
}
CORE = [(), ("leads",), ("log",), ("outbox",)]
# Arguments that are not ids although they are digits: a score; a research template, whose
# id or name the service matches (an unknown one is sent as a name).
NOT_IDS = {("outreach", "target"): {1}, ("research", "run"): {0}, ("research", "show"): {0}}


def command_tree() -> set[tuple[str, ...]]:
    """Every command a user can run: the leaves, and groups that run without a subcommand."""
    ctx = click.Context(main)
    found: set[tuple[str, ...]] = set()

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        if isinstance(command, click.Group):
            if command.invoke_without_command:
                found.add(path)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                walk(sub, (*path, name))
        else:
            found.add(path)

    walk(main, ())
    return found


def test_every_command_has_a_sample() -> None:
    assert command_tree() - NOT_LOCAL == set(SAMPLES)


# --- the states -----------------------------------------------------------------------------------


@dataclass
class State:
    name: str
    root: Path
    env: dict[str, str] = field(default_factory=dict)
    as_other_user: bool = False  # permission states: see `other_user_prefix`
    expected: frozenset[int] = frozenset({5})

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def db(self) -> Path:
        return self.data / "cache.sqlite3"


def good_cache(root: Path) -> tuple[Path, str]:
    """A cache with one lead and one queued note (the action that must not be lost)."""
    store = Store(root / "data" / "cache.sqlite3")
    store.upsert_leads([{"id": int(LEAD), "company_name": "Acme One"}])
    op_id = store.enqueue("add_note", {"lead_id": int(LEAD), "content": "queued before"}, lead_id=int(LEAD))
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return root / "data" / "cache.sqlite3", op_id


def make_states(base: Path) -> list[State]:
    states: list[State] = []

    def fresh(name: str, **kwargs: object) -> State:
        state = State(name, base / name, **kwargs)  # type: ignore[arg-type]
        state.root.mkdir(parents=True)
        good_cache(state.root)
        states.append(state)
        return state

    state = fresh("not-sqlite")
    state.db.write_bytes(bytes(range(256)) * 64)
    state = fresh("truncated")
    state.db.write_bytes(state.db.read_bytes()[:5000])
    state = fresh("schema-page-overwritten")
    overwrite_page(state.db, 2)
    for table in ("leads", "outbox"):  # damage met after opening, by some queries only
        state = fresh(f"{table}-page-overwritten", expected=frozenset(DOCUMENTED))
        overwrite_page(state.db, root_page(state.db, table))
    state = fresh("cache-is-a-directory")
    state.db.unlink()
    state.db.mkdir()
    state = fresh("data-dir-is-a-file")
    shutil.rmtree(state.data)
    state.data.write_text("not a directory\n")
    state = fresh("config-not-utf8", expected=frozenset({2}))
    (state.root / "config.toml").write_bytes(b'[service]\nbase_url = "https://caf\xe9.example/"\n')
    state.env["WARMLINE_CONFIG"] = str(state.root / "config.toml")
    return states


def other_user_prefix() -> list[str] | None:
    """How to run a command without the power to ignore file permissions: directly for an
    ordinary user; as root, inside a new user namespace (`unshare -U`), where root's
    override does not apply to the files outside; None when neither is possible."""
    if os.geteuid() != 0:
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, "-U", "true"], capture_output=True, timeout=RUN_TIMEOUT)
    return [unshare, "-U"] if probe.returncode == 0 else None


def permission_states(base: Path) -> list[State]:
    states = []
    for name, dir_mode, file_mode in (("data-dir-unreadable", 0o000, 0o600), ("data-dir-read-only", 0o500, 0o400)):
        state = State(name, base / name, as_other_user=True)
        state.root.mkdir(parents=True)
        good_cache(state.root)
        os.chmod(state.db, file_mode)
        os.chmod(state.data, dir_mode)
        states.append(state)
    return states


# --- running -----------------------------------------------------------------------------------


@dataclass
class Run:
    state: State
    args: list[str]
    command: tuple[str, ...] = ()
    returncode: int = -1
    stdout: str = ""
    stderr: str = ""


TERMINAL_DRIVER = "textual.drivers.linux_driver:LinuxDriver"


def env_for(state: State) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARMLINE_")}
    env.update(
        WARMLINE_DATA_DIR=str(state.data), WARMLINE_CONFIG=str(state.root / "absent.toml"),
        WARMLINE_BASE_URL=CLOSED_PORT_URL, WARMLINE_API_KEY="test-key", TERM="dumb", COLUMNS="100",
        # The cockpit drawn into a pipe, as chosen (without a terminal it would refuse first,
        # warmline.terminal): these runs are about its checks of the cache.
        TEXTUAL_DRIVER=TERMINAL_DRIVER,
    )
    env.update(state.env)
    return env


def execute(run: Run, prefix: list[str]) -> Run:
    process = subprocess.run(
        [*prefix, sys.executable, "-m", "warmline", *run.args], env=env_for(run.state),
        capture_output=True, stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT,
    )
    run.returncode = process.returncode
    run.stdout = process.stdout.decode("utf-8", "replace")
    run.stderr = process.stderr.decode("utf-8", "replace")
    return run


def run_all(runs: list[Run], prefix: list[str] | None = None) -> list[Run]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda r: execute(r, prefix or []), runs))


TERMINAL_MODES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")  # Textual entering/leaving its screen (CSI)


LEAVE_SCREEN = "\x1b[?1049l"  # Textual leaving its alternate screen: what it drew is gone


def error_lines(run: Run) -> list[str]:
    """The lines a rep reads after the command: for the cockpit, what follows its screen
    (a damage found after the first frame is reported once the screen is left)."""
    text = TERMINAL_MODES.sub("", run.stderr.rpartition(LEAVE_SCREEN)[2] if LEAVE_SCREEN in run.stderr else run.stderr)
    return [line for line in text.splitlines() if line.startswith("Error:")]


def describe(run: Run) -> str:
    return f"{run.state.name}: warmline {' '.join(run.args)!r} -> {run.returncode}\n{run.stderr[-1500:]}"


def fingerprint(path: Path) -> str:
    if path.is_dir():
        return "a directory"
    if not path.exists():
        return "missing"
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sample(command: tuple[str, ...]) -> list[str]:
    return [*command, *SAMPLES[command]]


# --- the tests ---------------------------------------------------------------------------------


@pytest.fixture
def base() -> Iterator[Path]:
    # Under /tmp with a traversable mode, so that a run as another user reaches it.
    path = Path(tempfile.mkdtemp(prefix="warmline-bad-state-"))
    os.chmod(path, 0o755)
    yield path
    for state_dir in path.iterdir():
        for sub in (state_dir, *state_dir.rglob("*")):
            if sub.is_dir() and not sub.is_symlink():
                os.chmod(sub, 0o700)
    shutil.rmtree(path)


def test_a_cache_it_cannot_use_is_one_line_and_exit_5_and_stays_as_it_was(base: Path) -> None:
    states = make_states(base)
    before = {state.name: fingerprint(state.db if state.db.exists() else state.data) for state in states}
    others = sorted(SAMPLES.keys() - set(CORE))
    runs = []
    for index, state in enumerate(states):
        share = others[index::len(states)]  # every command meets some bad cache
        runs += [Run(state, sample(command), command) for command in (*CORE, *share)]
    runs = run_all(runs)
    for run in runs:
        assert "Traceback" not in run.stderr + run.stdout, describe(run)
        assert run.returncode in run.state.expected, describe(run)
        if run.returncode in (2, 5):
            assert len(error_lines(run)) == 1, describe(run)
        if run.returncode == 5:  # names the file and says what to do about it
            assert str(run.state.db) in error_lines(run)[0] and "; " in error_lines(run)[0], describe(run)
    # Whatever opens the file as a cache refuses it: the core commands all say 5.
    for run in runs:
        if run.state.expected == {5} and run.command in CORE:
            assert run.returncode == 5, describe(run)
    for state in states:
        if state.name.endswith("-page-overwritten"):
            continue  # queries that miss the bad page may write to the good ones
        assert fingerprint(state.db if state.db.exists() else state.data) == before[state.name], state.name
    config_runs = [r for r in runs if r.state.name == "config-not-utf8"]
    assert all("not valid UTF-8" in error_lines(r)[0] for r in config_runs)


def test_a_data_dir_it_may_not_read_or_write_is_one_line_and_exit_5(base: Path) -> None:
    prefix = other_user_prefix()
    if prefix is None:
        pytest.skip("running as root with no user namespace: permissions cannot be denied")
    states = permission_states(base)
    before = {}
    for state in states:
        os.chmod(state.data, 0o700)
        before[state.name] = fingerprint(state.db)
    for state, mode in zip(states, (0o000, 0o500), strict=True):
        os.chmod(state.data, mode)
    runs = run_all([Run(state, sample(command)) for state in states for command in CORE], prefix)
    for run in runs:
        assert "Traceback" not in run.stderr + run.stdout, describe(run)
        assert run.returncode == 5, describe(run)
        (line,) = error_lines(run)
        assert str(run.state.data) in line and "permissions" in line, describe(run)
    for state in states:
        os.chmod(state.data, 0o700)
        assert fingerprint(state.db) == before[state.name], state.name


def id_variants() -> list[list[str]]:
    """Each sample with one of its id arguments (a positional of digits) made 2^63."""
    variants = []
    for command, args in SAMPLES.items():
        for index, arg in enumerate(args):
            previous = args[index - 1] if index else ""
            if arg.isdigit() and not previous.startswith("-") and index not in NOT_IDS.get(command, set()):
                variants.append([*command, *args[:index], BIG, *args[index + 1:]])
    return variants


def text_variants() -> list[list[str]]:
    """Each sample with its first text value (not an id, not an option name) not UTF-8."""
    variants = []
    for command, args in SAMPLES.items():
        for index, arg in enumerate(args):
            if not arg.isdigit() and not arg.startswith("-") and arg not in ("on", "warm", "cold", "leads"):
                variants.append([*command, *args[:index], BAD + arg, *args[index + 1:]])
                break
    return variants


def test_huge_ids_and_bytes_that_are_not_utf8_are_bad_input_and_queue_nothing(base: Path) -> None:
    state = State("good", base / "good", expected=frozenset({2}))
    state.root.mkdir()
    db, op_id = good_cache(state.root)
    conn = sqlite3.connect(db)
    outbox_before = conn.execute("SELECT * FROM outbox ORDER BY op_id").fetchall()
    conn.close()
    big = id_variants()
    texts = text_variants()
    assert len(big) >= 30 and len(texts) >= 12
    runs = run_all([Run(state, args) for args in big + texts])
    for run in runs:
        assert "Traceback" not in run.stderr + run.stdout, describe(run)
        assert run.returncode == 2, describe(run)
        (line,) = error_lines(run)
        if BIG in run.args:
            assert BIG in line, describe(run)
        else:
            assert "not valid UTF-8" in line, describe(run)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT * FROM outbox ORDER BY op_id").fetchall() == outbox_before
        assert [r[0] for r in conn.execute("SELECT op_id FROM outbox")] == [op_id]
    finally:
        conn.close()
