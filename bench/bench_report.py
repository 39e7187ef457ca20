"""The week in review at 10,000 leads, 500,000 activities and 100,000 notes (issue 24).
Prints figures; asserts nothing.

    .venv/bin/python bench/bench_report.py [--leads 10000] [--activities 500000] [--notes 100000]
                                           [--repeat 15] [--cache PATH]

Builds the big cache once (`big_cache.build_big_cache`: a year of work; kept at --cache
to reuse it), then times, each the median of `--repeat` runs after one warm-up:
- `build_review` of this week (the one holding NOW, read on its Friday) and of the week
  before (a whole week closed), with the follow-ups file;
- each renderer on the week's review; and prints the HTML file's size.
Goals (issue 24): the week's report under 300 ms, the HTML under 300 KB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent))

from big_cache import build_big_cache  # noqa: E402 (the bench's own folder, put on the path above)

from warmline.review.build import build_review  # noqa: E402
from warmline.review.formats import RENDERERS  # noqa: E402
from warmline.review.period import week_starting  # noqa: E402
from warmline.store import Store  # noqa: E402
from warmline.store.followups import FollowUps  # noqa: E402

NOW = datetime(2026, 11, 27, 16, 0, tzinfo=ZoneInfo("Europe/Berlin"))


def median_ms(call: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """(median, max, median CPU) in milliseconds of `repeat` runs after one warm-up. The
    CPU time (this process's) is what a shared, busy machine changes least."""
    call()
    times, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        call()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(times), max(times), statistics.median(cpu)


def show(name: str, figures: tuple[float, float, float]) -> None:
    median, worst, cpu = figures
    print(f"{name:<36} median {median:7.1f} ms   max {worst:7.1f} ms   CPU {cpu:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--leads", type=int, default=10_000)
    parser.add_argument("--activities", type=int, default=500_000)
    parser.add_argument("--notes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--cache", type=Path, default=None, help="a folder to keep the cache in (reused if there)")
    args = parser.parse_args()
    folder = args.cache or Path(tempfile.mkdtemp(prefix="warmline-bench-report-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cache.sqlite3"
    if not path.exists():
        started = time.perf_counter()
        build_big_cache(path, now=NOW, leads=args.leads, activities=args.activities, notes=args.notes)
        print(f"built the cache in {time.perf_counter() - started:.1f} s: {path}")
    store = Store(path)
    follow_ups = FollowUps(folder)
    this_week = week_starting(NOW.date())
    last_week = this_week.shifted(-1)

    def review(period=this_week):  # type: ignore[no-untyped-def]
        return build_review(store, period, now=NOW, cold_after_days=14, follow_ups=follow_ups)

    week = review()
    print(f"{args.leads:,} leads, {args.activities:,} activities, {args.notes:,} notes;"
          f" {this_week.label}: {week.activities:,} activities, {week.notes:,} notes,"
          f" {len(week.touched):,} leads touched")  # fmt: skip
    for name, period in (("this week (to Friday)", this_week), ("last week (closed)", last_week)):
        show(f"build_review {name}", median_ms(lambda p=period: review(p), args.repeat))
    for fmt, render in RENDERERS.items():
        show(f"render {fmt}", median_ms(lambda r=render: r(week), args.repeat))
    show("report week --format html (total)", median_ms(lambda: RENDERERS["html"](review()), args.repeat))
    size = len(RENDERERS["html"](week).encode())
    print(f"HTML file: {size / 1024:.1f} KB ({size:,} bytes)")
    store.close()
    follow_ups.close()


if __name__ == "__main__":
    main()
