"""Follow-up parser speed (issue 15: "parsing is local and fast"). Prints figures; asserts
nothing.

    .venv/bin/python bench/bench_followups.py [--lines 10000] [--repeat 5]

Parses typical activity lines (a third with a follow-up, the rest plain notes, some with
numbers that are not dates), a long pasted email, and reports microseconds per parse: the
median of `--repeat` passes over `--lines` lines. Also the module's import time and its
first parse (which compiles the patterns), since the log form loads it. Times are CPU time
of this process (`time.process_time`): on a shared machine wall time mostly measures the
wait for a core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from datetime import datetime

LINES = [
    "Spoke with Dana, wants pricing by Friday",
    "Called, left voicemail. Try again tomorrow at 10",
    "Demo went well; they need 10 licences, 3.50 a seat, decision in two weeks",
    "Sent the deck to Priya and the CFO",
    "Friday's meeting went well, next step is legal review",
    "LinkedIn message: congratulated on the new role",
    "Met at the conference, interested in Q1 budget",
    "Follow up next Tuesday about the security questionnaire",
    "Email: renewal terms attached, contract ends 3 December 2026",
    "Call +49 30 1234/5678 after lunch, ask for Jonas",
    "They use monday.com and Jira, v2.3 of our plugin",
    "Quote by EOM, then procurement",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import warmline.followup_phrases"],
        capture_output=True,
        text=True,
        check=True,
    )
    own = [
        line
        for line in out.stderr.splitlines()
        if line.rstrip().endswith("warmline.followup_phrases")
    ]
    import_us = int(own[-1].split("|")[1]) if own else -1
    print(
        f"import warmline.followup_phrases: {import_us} us cumulative (child run {time.perf_counter() - started:.2f} s)"
    )

    t0 = time.process_time()
    from warmline.followup_phrases import parse_follow_up  # deferred: command line

    now = datetime(2026, 11, 24, 10, 0).astimezone()
    t1 = time.process_time()
    parse_follow_up("by Friday", now)
    print(
        f"in process: import {(t1 - t0) * 1e3:.1f} ms, first parse {(time.process_time() - t1) * 1e3:.1f} ms"
    )
    rng = random.Random(15)
    lines = [rng.choice(LINES) for _ in range(args.lines)]
    found = sum(parse_follow_up(line, now) is not None for line in lines)
    per_line = []
    for _ in range(args.repeat):
        t0 = time.process_time()
        for line in lines:
            parse_follow_up(line, now)
        per_line.append((time.process_time() - t0) / len(lines) * 1e6)
    print(
        f"typical lines: {statistics.median(per_line):.1f} us per parse (median of {args.repeat} passes "
        f"over {len(lines)} lines, {found} with a follow-up); {args.lines} lines in "
        f"{statistics.median(per_line) * len(lines) / 1e6 * 1000:.0f} ms"
    )

    email = (
        "Hi all, thanks for the call. We reviewed the numbers (10 licences, 3.50 each). " * 60
    )[:3900] + " Decision by Friday."
    t0 = time.perf_counter()
    for _ in range(200):
        guess = parse_follow_up(email, now)
    print(
        f"a {len(email)}-character pasted email: {(time.perf_counter() - t0) / 200 * 1e6:.0f} us per parse ({guess and guess.phrase!r})"
    )


if __name__ == "__main__":
    main()
