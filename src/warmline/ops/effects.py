"""What an operation does to the cache, said as a value: the store carries it out.

SQL lives only in the store, so a spec (`warmline.ops.specs`) does not hold a function
that writes the cache: it holds one of the values below, and `warmline.store.effects`
interprets it (one `match`, before the answer and after it: apply, fold, rebase,
restore). A new operation whose effect is one of these kinds needs no change in the store.

How the sync engine settles an ambiguous attempt (sent, answer lost) of each kind is the
spec's `reconcile`: APPEND looks for the record among the lead's recent ones before
sending again; SET reads the current state and skips when it already holds; KEYED relies
on the Idempotency-Key (creating jobs and leads: nothing readable to match), with a probe
where there is something to find (a contact made offline: by its email, else its name).

Annotations are evaluated, not strings, as in `warmline.store.rows` (its named tuples
are defined before the first frame).
"""


from enum import StrEnum
from typing import Literal

from warmline.named_tuple import NamedTuple
from warmline.ops.kinds import JobKind


class Reconcile(StrEnum):
    """How an ambiguous attempt is settled (`warmline.sync.reconcile`)."""

    APPEND = "append"
    SET = "set"
    KEYED = "keyed"


AppendTable = Literal["touchpoints", "notes", "competitors"]
"""The lead's records an op adds while pending (each pending row keeps the op's id)."""
ChildTable = Literal["lead_contacts", "monitoring_pages", "competitors"]
"""The lead's records whose flags an op sets."""


class AppendRow(NamedTuple):
    """A pending record on the lead, replaced by the service's when the answer carries it.
    Appends commute with everything, so a rebase applies a lead's queued ones at once."""

    table: AppendTable


class SetLeadField(NamedTuple):
    """One field of the lead set to the payload's value of the same name."""

    field: Literal["lead_status", "target_score"]


class SetDeal(NamedTuple):
    """The deal fields the payload names (won / lost become their dates)."""


class HideLead(NamedTuple):
    """The lead leaves the lists at once, and the cache when the service confirms."""


class CloseRecommendation(NamedTuple):
    """The card leaves the queue (completing also closes the lead's cards on the same post)."""

    status: Literal["completed", "dismissed"]


class ChildFlag(NamedTuple):
    """A flag of one of the lead's records, named by the payload's `id_field`.

    With `from_payload`, the flag takes the payload's value of the same name (a pin, a
    toggle) and the service's record says it too; otherwise it is a local mark set until
    the service answers (a scan queued), which no record of the service carries."""

    table: ChildTable
    id_field: str
    flag: str
    from_payload: bool
    detail_list: str  # the lead detail's list of these records, as the service gives it
    answer_key: str  # where an answer carries the record


class CreatedByService(NamedTuple):
    """Nothing until the answer: what the action creates has ids only the service gives."""

    records: Literal["leads", "contacts"]


class LocalRecord(NamedTuple):
    """A record made offline: it shows at once under a local id (negative, so it can never
    be a service id), and ops may name it. When the create is delivered, the store writes
    the service's record and puts its id for the local one wherever the local one stands
    (queued payloads, the lead's contacts, activities; for a company, the `company_id` and
    `company_ids` of queued payloads and pending contacts), in the transaction that marks the
    create done. Ops naming a local id are not due before that (`Store.due_ops`)."""

    table: Literal["contacts", "companies"]
    id_field: Literal["contact_id", "company_id"]  # the name ops give the record in their payloads
    answer_key: str  # where the answer carries the record


class StartJob(NamedTuple):
    """A queued job shows at once; the answer gives it its remote id (`id_field` of the
    answer, or the lead's id when None) and, with `lead_field`, the lead's status of it."""

    job: JobKind
    id_field: str | None
    lead_field: Literal["signal_scan_status", "generation_status"] | None


Effect = (
    AppendRow | SetLeadField | SetDeal | HideLead | CloseRecommendation | ChildFlag | CreatedByService | LocalRecord
    | StartJob
)
"""Every kind of local effect (`warmline.store.effects` matches on it)."""
