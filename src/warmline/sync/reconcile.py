"""Settling an ambiguous op (sent, answer lost) by reading the server before any resend.

The server may lack idempotency support (the sandbox's `--no-idempotency`), so the
Idempotency-Key alone cannot prevent a duplicate. For each kind we ask: does the server
already show this op's effect? If so, the op is adopted as delivered with an answer built
from what we read; if not, it is sent again (with the same key, which a server that
supports keys also deduplicates).

- Appends (activity, note, competitor): a record with the same lead, the same text, made
  at or after the op's first send (converted to the server's clock, as learned from its
  answers, less a margin; `warmline.ops.matching.since`), and not already owned
  by another of our ops, is ours. For an activity, the text as sent may carry the
  late-activity annotation ("... (logged 13:05)"), so either form matches.
- Set-to-value ops (status, target, pins, toggles, deal, recommendation close, removal):
  if the server already shows the value, sending is skipped.
- Job starts: a signal scan started after our first send is ours; so is a recommendation
  generation under way, or recommendations created since our first send. A competitor
  scanned since our first send was scanned by us; companies that are all leads were added.
  Deep searches, contact searches, research runs, company research and adding found
  contacts have nothing readable to match, so they are resent under the same key: against
  a server without idempotency support that is at-least-once (docs/sync.md says so).
- A contact made offline: a contact of the same company with the same names and email,
  made at or after our first send and owned by no other of our creates, is ours.

Each kind's probe is a part of its spec (`warmline.ops.specs`, next to its request); the
record matching they share is `warmline.ops.matching`.
"""

from __future__ import annotations

from warmline.api import ServiceClient
from warmline.ops.facts import CacheFacts
from warmline.ops.op import Answer, Op
from warmline.ops.specs import spec_of


async def already_applied(client: ServiceClient, cache: CacheFacts, op: Op) -> Answer | None:
    """The answer to adopt when the server already shows `op`'s effect, else None (resend).

    Transport and server errors propagate: the caller keeps the op ambiguous and tries
    again later, because resending without knowing could duplicate it.
    """
    spec = spec_of(op.kind)
    if spec is None or spec.probe is None:
        return None
    return await spec.probe(client, cache, op)
