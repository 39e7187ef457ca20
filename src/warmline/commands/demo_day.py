"""The demo's morning: what `warmline demo` adds to a new data dir so its Today makes sense.

The reference server's seed (`warmline_sandbox.seed`) gives the demo a past: two leads
that reached their target with the last day's activities, warm leads gone quiet, this
morning's recommendations, a deep search that finished before the start and a promise
logged yesterday. Two parts of a rep's morning live on the client only, so the demo makes
them once, on the first start of a data dir (`DAY_MARKER`), in that data dir's cache only:

- the finished deep search, polled as a job started elsewhere (the service has no list
  of jobs; a real rep's cockpit knows the jobs it started);
- the follow-ups the last two days' activities promise, read by the same parser and with
  the same rule as the cockpit's activity form (`follow_up_from_text`, with the activity's
  own time as "now"): "promised ... tomorrow" logged yesterday is due today.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warmline.config import Config

DAY_MARKER = "demo-day"
"""A file in the demo's data dir: the first start's additions are made (never twice)."""
PROMISES_WITHIN = 2 * 86_400.0
"""Follow-ups are read from the activities of the last two days (seconds)."""


def first_start(root: Path) -> bool:
    """Whether the demo's data dir `root` has not had its morning made yet."""
    return not (root / DAY_MARKER).exists()


async def make_morning(config: Config, sandbox_db: Path, root: Path, now: datetime) -> int:
    """The first start's additions (see the module), then the marker; returns how many
    follow-ups were made. `now`: aware, the rep's zone."""
    from warmline.actions.followups import follow_up_from_text  # deferred: command line
    from warmline.commands.common import open_store  # deferred: command line
    from warmline.ops.kinds import JobKind  # deferred: command line
    from warmline.store.followups import FollowUps  # deferred: command line
    from warmline.store.recent_activities import activities_since  # deferred: command line
    from warmline.sync.requests import dump  # deferred: command line
    from warmline.wiring import make_client  # deferred: command line
    from warmline_sandbox.demo_meta import read_demo_deep_search_job  # deferred: sandbox

    job_id = read_demo_deep_search_job(sandbox_db)
    made = 0
    with open_store(config) as store:
        if job_id is not None:
            client = make_client(config)
            async with client:
                answer = await client.get_deep_search(job_id)
            store.record_job(JobKind.DEEP_SEARCH, job_id, dump(answer))
        with FollowUps(config.data_dir) as followups:
            for activity in activities_since(store, now.timestamp() - PROMISES_WITHIN):
                said = datetime.fromtimestamp(activity.logged_at, now.tzinfo)
                found = follow_up_from_text(
                    followups,
                    activity.lead_id,
                    activity.company,
                    activity.text,
                    "activity",
                    None,
                    said,
                )
                made += found is not None
    (root / DAY_MARKER).write_text("the demo's follow-ups and finished deep search are made\n")
    return made
