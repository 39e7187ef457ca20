"""Prospecting work that is not a queued action: instant lookup, plan-cost notices, naming a
company, and following a started job until it ends.

Instant lookup is online-only by nature (its answer is the point), so it is not queued:
it calls the service at once and keeps the answer in the cache, where an offline rep can
reread it. Job starts (deep search, contact search, research run) ARE queued actions (see
`warmline.actions`); `wait_for_job` delivers such a start and polls the job through the
sync engine, so the CLI's `--wait` and the cockpit see the same states and results.

Shared by the headless commands and the cockpit; never imports Textual or Rich.
"""

from __future__ import annotations

import asyncio
import difflib
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from warmline.api import limits
from warmline.api.errors import ApiError, AuthError, OfflineError, PlanLimitError
from warmline.ops.kinds import OpKind
from warmline.records import save_record
from warmline.store import FAILED, QUEUE_STATES, Job, Store
from warmline.store.lookup_values import FIELDS, LookupValues
from warmline.store.outreach import outreach_status
from warmline.store.people_found import NO_ROLE, role_order
from warmline.sync.jobs import POLL_MAX
from warmline.textsafe import terminal_line

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.sync import SyncEngine

# --- what an operation costs ------------------------------------------------------------------

LOOKUP = "lookup"
DEEP_SEARCH = "deep_search"
CONTACT_SEARCH = "contact_search"
RESEARCH_RUN = "research_run"
COMPANY_RESEARCH = "company_research"
ADD_CONTACTS = "add_contacts"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}es" if word.endswith("ch") else f"{count} {word}s"


def cost_notice(operation: str, count: int = 1, *, save: bool = False) -> str:
    """The plan cost of an operation, in the words shown to the rep before it is spent.

    The spec counts these against the plan: 1 instant lookup per lookup, 1 deep search per
    deep search, contact search or company research, 1 company enrichment per company of
    a research run, and contact capacity per contact added.
    """
    if operation == LOOKUP:
        text = "This uses 1 instant lookup from your plan."
        if save:
            text += " Saved companies count against your plan's saved-company limit."
        return text
    if operation in (DEEP_SEARCH, CONTACT_SEARCH, COMPANY_RESEARCH):
        return "This uses 1 deep search from your plan."
    if operation == RESEARCH_RUN:
        return f"This uses {_plural(count, 'company enrichment')} from your plan (one per company)."
    if operation == ADD_CONTACTS:
        return f"Adding {_plural(count, 'contact')} uses contact capacity from your plan."
    raise ValueError(f"unknown operation {operation!r}")


# --- naming a company --------------------------------------------------------------------------


@dataclass(frozen=True)
class CompanyRef:
    """A company named on the command line: its id, and its name when the cache knows it."""

    id: int
    name: str | None

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})" if self.name else f"company {self.id}"


class NoSuchCompany(LookupError):
    """No cached company matches a name. The caller says how to fetch the list: the
    command line and the cockpit do it differently."""


def resolve_company(store: Store, ref: str) -> CompanyRef:
    """A company id, or an unambiguous start of a cached company's name.

    An id is taken even when the company is not cached (it may be saved on the service
    and not fetched yet): the service will say if it does not exist. A name must match
    the start of exactly one cached name, or exactly one name as a whole.
    """
    text = ref.strip()
    if re.fullmatch(r"[0-9]+", text):  # ASCII digits only: `int("٣")` is 3
        company_id = limits.check_id("company", int(text))
        cached = store.get_company(company_id)
        return CompanyRef(company_id, cached.name if cached else None)
    needle = text.lower()
    if not needle:
        raise LookupError("give a company id or the start of a company name")
    found = [CompanyRef(company_id, name) for company_id, name in store.companies_named(needle, limit=6)]
    if not found:
        raise NoSuchCompany(f"no cached company matches {text!r}")
    exact = [ref for ref in found if str(ref.name).lower() == needle]
    if len(exact) == 1:
        return exact[0]
    if len(found) > 1:
        names = ", ".join(f"{terminal_line(ref.name)} ({ref.id})" for ref in found[:5])
        raise LookupError(f"{text!r} matches several companies: {names}")
    return found[0]


def resolve_companies(store: Store, refs: Sequence[str]) -> list[CompanyRef]:
    """The cached companies `refs` name (`resolve_company`), each once, in the order first
    named. Every name that does not name one company is said in the one error, so a list
    with two mistakes takes one correction, not two (NoSuchCompany when one of them names
    no cached company: the caller's hint then says how to fetch the list)."""
    named: dict[int, CompanyRef] = {}
    problems: list[str] = []
    missing = False
    for ref in refs:
        try:
            company = resolve_company(store, ref)
        except NoSuchCompany as exc:
            missing = True
            problems.append(str(exc))
        except (LookupError, ValueError) as exc:
            problems.append(str(exc))
        else:
            named.setdefault(company.id, company)
    if problems:
        raise (NoSuchCompany if missing else LookupError)("; ".join(problems))
    return list(named.values())


# --- instant lookup -------------------------------------------------------------------------------


def lookup_criteria(
    query: str | None = None,
    industries: Sequence[str] = (),
    countries: Sequence[str] = (),
    regions: Sequence[str] = (),
    broaden: bool = False,
    limit: int | None = None,
) -> dict[str, Any]:
    """The lookup request (checked against the spec), in the form its cached answer is keyed by.

    `save` is not part of it: the same search finds the same companies whether or not
    they were saved, so an offline rep gets the earlier answer either way.
    """
    filters = {
        name: [value.strip() for value in values if value.strip()]
        for name, values in (("industries", industries), ("countries", countries), ("regions", regions))
    }
    cleaned = limits.check_lookup(query, filters["industries"], filters["countries"], filters["regions"], limit)
    criteria: dict[str, Any] = {"query": cleaned, **filters, "broaden_search": bool(broaden) and cleaned is not None}
    if limit is not None:
        criteria["limit"] = limit
    return criteria


def _closest(keyword: str, names: Sequence[str]) -> str | None:
    """The known name a mistyped keyword most likely meant: one containing it, else the
    closest whole name, else the name with the closest word ("Fod": "Agriculture & Food")."""
    typed = keyword.casefold()
    folded = {name.casefold(): name for name in names}
    containing = [name for key, name in folded.items() if typed in key]
    if containing:
        return containing[0]
    close = difflib.get_close_matches(typed, list(folded), n=1, cutoff=0.6)
    if close:
        return folded[close[0]]
    words = {word: name for key, name in folded.items() for word in re.findall(r"\w+", key)}
    close = difflib.get_close_matches(typed, list(words), n=1, cutoff=0.6)
    return words[close[0]] if close else None


def unknown_keyword(criteria: Mapping[str, Any], known: LookupValues) -> str | None:
    """The line for the first filter keyword the cache has never seen, with the closest
    known name; None when every keyword is known.

    A mistyped industry made the service answer as if there were no industry filter (a
    silent broad search, a lookup spent), so the form asks first. The service may accept
    synonyms the cache has not seen, so this is a question, not a refusal: the form sends
    the same criteria as typed when asked again. A filter with no known names is not
    checked (there is nothing to compare with).
    """
    for name, field in FIELDS:
        names = known.of(name)
        folded = {value.casefold(): value for value in names}
        for keyword in criteria.get(name) or []:
            if not folded or keyword.casefold() in folded:
                continue
            close = _closest(keyword, names)
            said = f"no {field} named {keyword!r}"
            if close:
                return f"{said}; did you mean {close}? (enter again looks up as typed)"
            return f"{said} among those the cache has seen (enter again looks up as typed)"
    return None


def complete_keyword(value: str, names: Sequence[str]) -> str | None:
    """`value` with its last comma-separated keyword completed to the first known name it
    begins (case-insensitively); None when there is nothing to add."""
    head, comma, last = value.rpartition(",")
    typed = last.lstrip()
    if not typed:
        return None
    lead = head + comma + last[: len(last) - len(typed)]
    for name in names:
        if name.casefold().startswith(typed.casefold()) and len(name) > len(typed):
            return lead + name
    return None


async def run_lookup(store: Store, client: ServiceClient, criteria: Mapping[str, Any], save: bool) -> dict[str, Any]:
    """Look companies up now (1 instant lookup), keep the answer in the cache, return it.

    Companies the service saved are put in the cache's company list at once.
    """
    answer = await client.lookup_companies(
        criteria.get("query"),
        broaden_search=criteria.get("broaden_search") or None,
        industries=criteria.get("industries") or None,
        countries=criteria.get("countries") or None,
        regions=criteria.get("regions") or None,
        save=save or None,
        limit=criteria.get("limit"),
    )
    body = answer.model_dump(mode="json")
    store.save_lookup(dict(criteria), body)
    return {**body, "cached": False, "fetched_at": None}


def cached_lookup(store: Store, criteria: Mapping[str, Any]) -> dict[str, Any] | None:
    """The answer an earlier identical lookup got, with when it was fetched; None if none."""
    found = store.cached_lookup(dict(criteria))
    return None if found is None else {**found, "cached": True}


def lead_statuses(store: Store, company_ids: Iterable[int]) -> dict[int, str]:
    """The Lead column of a prospecting table: each company's lead status, or the status
    it is queued to get ("cold (queued)"), so a company just put into outreach shows at
    once, not only after the service has made its lead."""
    wanted = {int(company_id) for company_id in company_ids}
    statuses = outreach_status(store, wanted)
    for op in store.outbox_rows(QUEUE_STATES):
        if op.kind != OpKind.ADD_TO_OUTREACH:
            continue
        status = str(op.payload.get("lead_status") or "cold")
        for company_id in op.payload.get("company_ids") or []:
            if isinstance(company_id, int) and company_id in wanted:
                statuses.setdefault(company_id, f"{status} (queued)")
    return statuses


# The fields of a lookup result that make a company record (the rest is the answer's own).
RESULT_FIELDS = ("name", "domain", "industry", "country", "region", "size", "description")


def companies_word(count: int) -> str:
    return f"{count} compan{'y' if count == 1 else 'ies'}"


def save_notice(count: int, held: int | None = None) -> str:
    """What saving `count` chosen lookup results costs, said before it is spent.

    Each is one company created in the company list (`POST /v1/companies`): one saved-company
    slot of the plan each, and no instant lookup (the answer is already here). The plan's
    number of slots is not in the spec, so the rep is told how many the list holds.
    """
    text = f"Saves {companies_word(count)}: uses {count} of your plan's saved-company slots (no instant lookup)."
    if held is not None:
        text += f" Your company list holds {companies_word(held)} now."
    return text


def unsaved(answer: Mapping[str, Any], indexes: Iterable[int]) -> list[int]:
    """The results among `indexes` (positions in the answer) not saved yet, best first, so a
    plan limit met half-way keeps the better matches."""
    companies = answer.get("companies") or []
    return [i for i in sorted(set(indexes)) if 0 <= i < len(companies) and companies[i].get("saved_company_id") is None]


@dataclass
class SavedResults:
    """What saving chosen results did: the new answer (saved rows carry their company id),
    the positions saved, and why the rest were not (None when all were)."""

    answer: dict[str, Any]
    saved: list[int]
    stopped: str | None = None


async def save_results(
    store: Store, client: ServiceClient, criteria: Mapping[str, Any], answer: Mapping[str, Any], indexes: Iterable[int]
) -> SavedResults:
    """Save the chosen results of a lookup to the company list, one company each.

    The service saves a whole lookup or nothing (its `save` flag), so a selection is saved
    by creating each chosen company from its result's fields. The first refusal (a plan
    limit, going offline) stops the rest; what was saved stays saved and is kept in the
    cached answer, so the rows show it and can go into outreach.
    """
    companies = [dict(c) for c in answer.get("companies") or []]
    body = {key: value for key, value in answer.items() if key not in ("cached", "fetched_at")}
    outcome = SavedResults({**answer, "companies": companies}, [])
    try:
        for index in unsaved(answer, indexes):
            result = companies[index]
            fields = {name: result[name] for name in RESULT_FIELDS if result.get(name) not in (None, "")}
            try:
                record = await save_record(store, client, "companies", fields)
            except PlanLimitError as exc:
                used = f" ({exc.used} of {exc.limit} used)" if exc.limit is not None and exc.used is not None else ""
                outcome.stopped = f"plan limit of saved companies reached{used}: {terminal_line(str(exc))}"
                break
            except ApiError as exc:
                outcome.stopped = terminal_line(str(exc))
                break
            result["saved_company_id"] = record["id"]
            outcome.saved.append(index)
    finally:
        saved_count = int(answer.get("saved_count") or 0) + len(outcome.saved)
        outcome.answer["saved_count"] = saved_count
        if outcome.saved:
            store.update_lookup_answer(dict(criteria), {**body, "companies": companies, "saved_count": saved_count})
    return outcome


# --- found contacts ----------------------------------------------------------------------------------

def group_by_role(contacts: Iterable[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """Found contacts (as `--json` prints them) grouped as the rep reads them, in the order of
    the people-found read model (`warmline.store.people_found.role_order`)."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for contact in contacts:
        groups.setdefault(str(contact.get("role") or NO_ROLE), []).append(contact)
    return [(role, groups[role]) for role in role_order(groups)]


SKIP_REASONS = {
    "duplicate": "already in your contacts",
    "limit": "plan contact capacity reached",
    "unknown": "not found in that search",
}


def explain_skips(skipped_ids: Iterable[Mapping[str, Any]], names: Mapping[str, str] | None = None) -> list[str]:
    """One line per skipped contact saying why (duplicate, plan limit, ...), naming them as
    `names` does (the search's people by id, as text); "contact 7001" for anyone else."""
    lines = []
    for item in skipped_ids:
        reason = str(item.get("reason") or "unknown")
        who = (names or {}).get(str(item.get("id"))) or f"contact {item.get('id')}"
        lines.append(f"{who}: {SKIP_REASONS.get(reason, reason)}")
    return lines


# --- following a started job -------------------------------------------------------------------------


class StartRefused(Exception):
    """The service refused to start the job (plan limit, bad input...); the op is set aside."""


def job_for_op(store: Store, op_id: str) -> Job | None:
    """The job a queued start created (it keeps the op id once the server gives its id)."""
    return store.job_for_op(op_id)


Progress = Callable[[Job], None]
# The least time between two tries to send a start that did not go out, so that a send
# held back for a reason we cannot see never turns into a busy loop.
RETRY_FLOOR = 1.0
Sleep = Callable[[float], Awaitable[None]]


async def deliver_start(engine: SyncEngine, store: Store, op_id: str) -> Job:
    """Send a queued job start now; returns its job (with the server's id once accepted).

    Raises `OfflineError` / `AuthError` when the service cannot be used, and
    `StartRefused` with the service's message when it refused the start.
    """
    report = await engine.flush(ignore_backoff=True)
    if report.offline:
        raise OfflineError(report.offline_error or "could not reach the service")
    if report.auth_error:
        raise AuthError(report.auth_error)
    op = store.get_op(op_id)
    if op is not None and op.state == FAILED:
        raise StartRefused(op.last_error or "the service refused the request")
    job = job_for_op(store, op_id)
    if job is None:
        raise LookupError(f"no job was recorded for op {op_id[:8]}")
    return job


WAIT_DEADLINE = 30 * 60.0
"""Seconds `--wait` follows a job at most (a deep search of 100 companies takes minutes)."""


class JobWaitTimeout(Exception):
    """A job followed with `--wait` had not ended by the deadline; it goes on in the background."""

    def __init__(self, job: Job, deadline: float) -> None:
        super().__init__(
            f"still {job.status} after {deadline / 60:.0f} min; it goes on, and `warmline jobs` shows it"
        )
        self.job = job


async def wait_for_job(
    engine: SyncEngine,
    store: Store,
    op_id: str,
    *,
    on_update: Progress | None = None,
    sleep: Sleep = asyncio.sleep,
    clock: Callable[[], float] = time.time,
    deadline: float | None = None,
) -> Job:
    """Deliver a queued job start if needed, then poll the job until it ends; returns it.

    Polls go through the engine's job poller, at the interval it schedules (5-10 s, the
    spec's), so waiting here costs the service no more than the cockpit's own polling.
    The wait is bounded (`deadline` seconds, `WAIT_DEADLINE` by default): past it
    `JobWaitTimeout` says how the job stands, and the job goes on being polled by sync.
    """
    deadline = WAIT_DEADLINE if deadline is None else deadline
    give_up = clock() + deadline
    job = job_for_op(store, op_id)
    while job is None or job.remote_id is None:
        job = await deliver_start(engine, store, op_id)
        if job.remote_id is None:  # not sent yet: a retry (503) or the rate limit is due later
            op = store.get_op(op_id)
            due = max(op.next_attempt_at, op.not_before or 0) if op is not None else clock()
            wait = max(due - clock(), engine.client.limiter.delay(), RETRY_FLOOR)
            await sleep(min(wait, POLL_MAX))
    if on_update is not None:
        on_update(job)
    while job.active:
        if clock() >= give_up:
            raise JobWaitTimeout(job, deadline)
        wait = (job.next_poll_at or clock()) - clock()
        await sleep(min(max(0.0, wait), POLL_MAX))
        report = await engine.poll_jobs()
        if report.offline:
            raise OfflineError(report.offline_error or "could not reach the service")
        if report.auth_error:
            raise AuthError(report.auth_error)
        refreshed = store.get_job(job.key)
        if refreshed is None:
            raise LookupError(f"job {job.key} disappeared from the cache")
        job = refreshed
        if on_update is not None:
            on_update(job)
    return job


__all__ = [
    "ADD_CONTACTS",
    "COMPANY_RESEARCH",
    "CONTACT_SEARCH",
    "DEEP_SEARCH",
    "LOOKUP",
    "RESEARCH_RUN",
    "RESULT_FIELDS",
    "WAIT_DEADLINE",
    "CompanyRef",
    "JobWaitTimeout",
    "SavedResults",
    "StartRefused",
    "cached_lookup",
    "companies_word",
    "cost_notice",
    "deliver_start",
    "explain_skips",
    "group_by_role",
    "job_for_op",
    "lookup_criteria",
    "resolve_company",
    "NoSuchCompany",
    "run_lookup",
    "save_notice",
    "save_results",
    "unsaved",
    "wait_for_job",
]
