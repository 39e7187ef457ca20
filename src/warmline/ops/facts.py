"""What an operation's validation and reconciliation may ask of the local cache.

The operations sit below the store, so they name the few store methods they call in a
`Protocol`; `warmline.store.Store` satisfies it as it is (the type checker verifies it
wherever a store is passed in).
"""

from __future__ import annotations

from typing import Protocol

from warmline.ops.op import JsonObject


class Gone(Protocol):
    """A lead the service removed (`warmline.store.Tombstone`)."""

    @property
    def message(self) -> str: ...


class LeadStatus(Protocol):
    """A cached lead, as far as validation reads it."""

    @property
    def lead_status(self) -> str: ...


class CacheFacts(Protocol):
    """The store methods validators and probes call."""

    def lead_gone(self, lead_id: int) -> Gone | None: ...

    def lead_hidden(self, lead_id: int) -> bool | None: ...

    def lead_has(self, part: str, lead_id: int, part_id: int) -> bool: ...

    def get_lead(self, lead_id: int) -> LeadStatus | None: ...

    def recommendation_state(self, recommendation_id: int, lead_id: int) -> tuple[str, str | None] | None: ...

    def ids_made_by_other_ops(self, table: str, lead_id: int | None, op_id: str) -> set[int]: ...

    def other_done_results(self, lead_id: int | None, kind: str, op_id: str) -> list[JsonObject]: ...

    def made_offline(self, local_id: int) -> bool: ...
