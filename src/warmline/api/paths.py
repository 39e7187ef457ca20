"""The two path families of the research operations, and memory of which one works.

The spec names the research operations twice: a "detailed" family (`/v1/research/...`)
and an "overview" family (`/v1/research-templates/...`), and does not say which one is
authoritative. The client tries the remembered family first (the preferred one until it
knows), falls back to the other when the route is missing (404 without a resource message,
or 405), and remembers the one that answered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal, TypeVar

from warmline.api.errors import RouteMissingError

Family = Literal["detailed", "overview"]
FAMILIES: tuple[Family, ...] = ("detailed", "overview")

T = TypeVar("T")


def template_list_path(family: Family) -> str:
    return "/v1/research/templates" if family == "detailed" else "/v1/research-templates"


def template_path(family: Family, template_id: str) -> str:
    return f"{template_list_path(family)}/{template_id}"


def run_start_path(family: Family, template_id: str | None) -> str:
    """Detailed: one path with the template in the body. Overview: the template in the path."""
    if family == "detailed":
        return "/v1/research/run"
    return f"/v1/research-templates/{template_id}/run"


def run_status_paths(family: Family, run_id: str) -> tuple[str, ...]:
    """Where a run's status may be read, most likely first. The overview names
    `/v1/research-templates/runs/:runId`; the detailed family's is "not shown", so the
    plural (as the overview has it) and the singular of its start path are both tried."""
    if family == "detailed":
        return (f"/v1/research/runs/{run_id}", f"/v1/research/run/{run_id}")
    return (f"/v1/research-templates/runs/{run_id}",)


def run_status_path(family: Family, run_id: str) -> str:
    return run_status_paths(family, run_id)[0]


class FamilyMemory:
    """Which family answered last, per operation group (instance state of one client)."""

    def __init__(self, prefer: Family = "detailed") -> None:
        if prefer not in FAMILIES:
            raise ValueError(f"prefer must be one of {', '.join(FAMILIES)} (got {prefer!r})")
        self._prefer = prefer
        self._known: dict[str, str] = {}

    def known(self, group: str) -> str | None:
        """What last worked for `group` (a family, or a path's index), None before any success."""
        return self._known.get(group)

    def remember(self, group: str, choice: str) -> None:
        """Keep `choice` as what works for `group` (the run status path, say)."""
        self._known[group] = choice

    def as_state(self) -> dict[str, str]:
        """What this memory knows, to store per service (`restore` reads it back)."""
        return dict(self._known)

    def restore(self, state: object) -> None:
        if isinstance(state, dict):
            self._known.update({str(k): str(v) for k, v in state.items() if isinstance(v, str)})

    def order(self, group: str) -> list[Family]:
        first = next((f for f in FAMILIES if f == self._known.get(group)), self._prefer)
        return [first, *(f for f in FAMILIES if f != first)]

    async def run(self, group: str, attempt: Callable[[Family], Awaitable[T]]) -> T:
        """Call `attempt` with each family in order until one has the route."""
        missing: RouteMissingError | None = None
        for family in self.order(group):
            try:
                result = await attempt(family)
            except RouteMissingError as exc:
                missing = exc
                continue
            self._known[group] = family
            return result
        assert missing is not None
        raise missing
