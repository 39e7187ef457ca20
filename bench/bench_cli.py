"""Start-up of the headless queueing commands (issue 14): `warmline log LEAD TEXT` against
`python -c pass`, median wall time, online and offline. Prints figures; asserts nothing.

    .venv/bin/python bench/bench_cli.py [--runs 21]

Goal: `warmline log` returns within 10x `python -c pass`, whether or not the service is
reachable (docs/architecture.md, "Start-up"). What is timed is what a rep runs: the
console script next to this interpreter (else `python -m warmline`), as a new process,
with the background sender it starts (`warmline sync --send`) really started. Between
runs the bench waits for that sender to exit, as a rep's commands are seconds apart:
otherwise each run would also compete with the previous run's sender for the CPU. The
commands run turn by turn, each after a `python -c pass`, so that a shared machine's
changing load weighs on both sides; the CPU time (user + system) is printed too, as it
varies less with the load than the wall time.

Its own world: a sandbox server in its own process (bench/sandbox_process.py, 60 leads) and
a temporary cache filled by one `warmline sync --once`. Offline is a closed port. Byte
code is written and used (PYTHONDONTWRITEBYTECODE removed, a warm-up run first), as an
installed package has it. For reference, `log --wait` (send before returning, the old
behaviour) and `warmline leads` (a cache-only command through the whole command line).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sandbox_process import Sandbox

from warmline.commands.delivery import sender_running
from warmline.config import load_config

KEY = "bench-cli-key"
CLOSED_PORT_URL = "http://127.0.0.1:9"  # the discard port: nothing listens there
GOAL = 10.0


def warmline_command() -> list[str]:
    script = Path(sys.executable).with_name("warmline")
    return [str(script)] if script.exists() else [sys.executable, "-m", "warmline"]


def senders_alive(data_dir: str) -> bool:
    """Whether a `warmline sync --send` of this cache still runs (Linux: read from /proc;
    elsewhere False): it lets go of the lock before its interpreter shuts down, which still
    takes CPU that the next measured command would compete for."""
    marker = f"WARMLINE_DATA_DIR={data_dir}".encode()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if (
                b"sync\0--send" in (proc / "cmdline").read_bytes()
                and marker in (proc / "environ").read_bytes()
            ):
                return True
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return False


def wait_for_the_sender(env: dict[str, str]) -> None:
    """Until no background sender holds the cache's lock or still runs (polled, never
    slept through)."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        config = load_config()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    deadline = time.monotonic() + 120
    while sender_running(config) or senders_alive(env["WARMLINE_DATA_DIR"]):
        if time.monotonic() > deadline:
            raise SystemExit("a background sender was still running after 120 s")
        time.sleep(0.02)


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One run: wall seconds, and CPU seconds (user + system) of the process and the
    children it waited for (not the detached sender: init reaps it)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


Row = tuple[str, list[str], dict[str, str], bool]


def measure(
    rows: list[Row], base: list[str], env: dict[str, str], runs: int
) -> dict[str, list[tuple[float, float]]]:
    """Each command `runs` times, turn by turn, with `python -c pass` before each one, so
    that a shared machine's changing load weighs on the baseline as on the commands."""
    samples: dict[str, list[tuple[float, float]]] = {"python -c pass": []}
    for _ in range(runs):
        for label, command, command_env, settle in rows:
            samples["python -c pass"].append(timed(base, env))
            samples.setdefault(label, []).append(timed(command, command_env))
            if settle:
                wait_for_the_sender(command_env)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs", type=int, default=21, help="runs of each command (the median is shown)"
    )
    args = parser.parse_args()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "WARMLINE_NO_DETACH")
    }
    warmline = warmline_command()
    base = [sys.executable, "-c", "pass"]
    with (
        tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp,
        Sandbox(
            Path(tmp) / "sandbox.sqlite3",
            KEY,
            "--companies",
            "200",
            "--leads",
            "60",
            "--rate-limit",
            "100000/60",
            log=Path(tmp) / "sandbox.log",
        ) as server,
    ):
        env.update(
            WARMLINE_DATA_DIR=str(Path(tmp) / "data"),
            WARMLINE_API_KEY=KEY,
            WARMLINE_CONFIG=str(Path(tmp) / "absent.toml"),
            WARMLINE_BASE_URL=server.url,
        )
        filled = subprocess.run(
            [*warmline, "sync", "--once"], env=env, capture_output=True, text=True, check=False
        )
        if filled.returncode != 0:
            raise SystemExit(f"the first sync failed:\n{filled.stdout}{filled.stderr}")
        offline = {**env, "WARMLINE_BASE_URL": CLOSED_PORT_URL}
        log = [*warmline, "log", "3", "called them"]
        rows: list[Row] = [
            ("warmline log (online)", log, env, True),
            ("warmline log (offline)", log, offline, True),
            ("warmline note (online)", [*warmline, "note", "3", "budget ok"], env, True),
            ("reference: log --wait (online)", [*log, "--wait"], env, False),
            ("reference: log --wait (offline)", [*log, "--wait"], offline, False),
            ("reference: warmline leads", [*warmline, "leads"], env, False),
        ]
        measure(rows, base, env, 1)  # warm-up: byte code written, caches warm
        samples = measure(rows, base, env, args.runs)
        server.check()
    base_wall = statistics.median(w for w, _ in samples["python -c pass"])
    base_cpu = statistics.median(c for _, c in samples["python -c pass"])
    print(
        f"{' '.join(warmline)}: median of {args.runs} runs, turn by turn; goal: log within {GOAL:g}x python -c pass"
    )
    print(f"  {'':34s} {'wall':>9s} {'':6s}   {'CPU':>9s}")
    for label, runs in samples.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(
            f"  {label:34s} {wall * 1000:6.1f} ms {wall / base_wall:5.1f}x   {cpu * 1000:6.1f} ms {cpu / base_cpu:5.1f}x"
        )


if __name__ == "__main__":
    main()
