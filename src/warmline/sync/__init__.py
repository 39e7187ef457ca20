"""Moves data between the store and the api: outbox flush, refresh, job polling, scheduler.

- `engine.SyncEngine`: the scheduler (APScheduler in the running loop) and `run_once`.
- `flush.Flusher`: delivers queued actions exactly once (claim, send, settle).
- `reconcile`: settles ambiguous sends by reading the server before any resend.
- `requests`: the request behind each kind of queued action.
- `refresh.Refresher`: server data into the cache (stale-while-revalidate).
- `jobs.JobPoller`: polls running jobs every 5-10 s and pulls in their results.
- `status`: online/offline, the health probe, the status written for the cockpit (its
  type and words are the sync vocabulary, `warmline.store.sync_vocabulary`).
- `backoff`: full-jitter exponential backoff.

Never imports Textual or Rich (enforced by tests/test_layering.py).
"""

from warmline.sync.engine import PassReport, SyncEngine

__all__ = ["PassReport", "SyncEngine"]
