"""`OpSpec`: everything the program knows about one kind of queued operation, from the
rep's key to the wire and back. Each family module (`appends`, `lead_fields`, `children`,
`recommendations`, `starts`) writes its kinds' specs beside their parts; `warmline.ops.specs`
tables them by `OpKind`.

- `payload`: the request's shape (a `TypedDict` beside the parts), what the parts read;
- `validate`, `editable`, `derive_meta`: the check run when the rep acts and when they
  edit the op (`warmline.actions.queue`), the fields an edit may change, and the
  local-only facts derived from the payload;
- `effect`: what the op does to the cache at once, as a value the store carries out
  (`warmline.ops.effects`, interpreted by `warmline.store.effects`);
- `reconcile`, `probe`: how an attempt whose answer was lost is settled, and the reading
  of the service that shows the op already applied (`warmline.sync.reconcile`);
- `send`, `annotate_late`: the request (`warmline.sync.requests`), and whether a late
  activity's text names when it was logged;
- `confirm`: what a 2xx answer must show to count as done (`warmline.sync.confirm`);
- `done_if_card_gone`: a card the service no longer has means the decision is moot.

A part a kind does not have is written out as `None` (or `False`): the named tuple has no
defaults, so a spec without a part fails the type check. (A named tuple, not a frozen
dataclass, for the queue path's start-up: `warmline.startup`, item 4.)
"""

from __future__ import annotations

from typing import Any

from warmline.named_tuple import NamedTuple
from warmline.ops.confirmation import Check
from warmline.ops.effects import Effect, Reconcile, StartJob
from warmline.ops.parts import MetaBuilder, Probe, Sender, Validator


class OpSpec(NamedTuple):
    """One kind of queued operation, every part of it (the module docstring says each)."""

    payload: type[Any]
    validate: Validator
    editable: tuple[str, ...]
    derive_meta: MetaBuilder | None
    effect: Effect
    reconcile: Reconcile
    send: Sender
    annotate_late: bool
    probe: Probe | None
    confirm: Check | None
    done_if_card_gone: bool


def job_start(
    payload: type[Any], validate: Validator, editable: tuple[str, ...], effect: StartJob, send: Sender,
    probe: Probe | None,
) -> OpSpec:
    """A job start: settled by its key (or a probe), taken at the 2xx."""
    return OpSpec(
        payload=payload,
        validate=validate,
        editable=editable,
        derive_meta=None,
        effect=effect,
        reconcile=Reconcile.KEYED,
        send=send,
        annotate_late=False,
        probe=probe,
        confirm=None,
        done_if_card_gone=False,
    )
