"""The people a contact search found, as the rep picks from them: each person, grouped by
role (decision-makers, champions, influencers, then any role the service names that we do
not know, then those with none), with the company searched.

Found people are not contacts yet: they live in the search's answer until the rep adds
them. The cockpit's "People found" screen and `warmline contacts found` read this model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warmline.store.custom_fields import optional_id, optional_text
from warmline.store.rows import Job
from warmline.store.values import JsonMap

if TYPE_CHECKING:
    from warmline.store import Store

ROLE_ORDER = ("decision-maker", "champion", "influencer")
NO_ROLE = "other"
FIELDS = ("id", "first_name", "last_name", "title", "role", "email", "social_url", "company_id")


@dataclass(frozen=True)
class FoundPerson:
    """One person a search found; `id` is what adding them names (None: cannot be added)."""

    id: int | None
    first_name: str | None
    last_name: str | None
    title: str | None
    role: str | None
    email: str | None
    social_url: str | None
    company_id: int | None

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.first_name, self.last_name) if part)

    @property
    def group(self) -> str:
        """The role heading the person is listed under."""
        return self.role or NO_ROLE

    @classmethod
    def from_answer(cls, item: JsonMap) -> FoundPerson:
        return cls(
            id=optional_id(item.get("id")),
            first_name=optional_text(item.get("first_name")),
            last_name=optional_text(item.get("last_name")),
            title=optional_text(item.get("title")),
            role=optional_text(item.get("role")),
            email=optional_text(item.get("email")),
            social_url=optional_text(item.get("social_url")),
            company_id=optional_id(item.get("company_id")),
        )

    def as_json(self) -> dict[str, str | int | None]:
        """The fields `warmline contacts found --json` prints (docs/cli.md)."""
        return {name: getattr(self, name) for name in FIELDS}


@dataclass(frozen=True)
class RoleGroup:
    role: str
    people: tuple[FoundPerson, ...]


@dataclass(frozen=True)
class PeopleFound:
    """A contact search and its finds; `company_name` is None when the company is not cached."""

    job: Job | None
    company_id: int | None
    company_name: str | None
    people: tuple[FoundPerson, ...]
    groups: tuple[RoleGroup, ...]
    in_contacts: frozenset[int] = frozenset()
    """The ids of the people who are contacts of the company already (`already_contacts`)."""


def role_order(roles: Iterable[str]) -> list[str]:
    """The rep's order of role headings: the known roles, the others alphabetically, then none."""
    present = set(roles)
    known = [role for role in ROLE_ORDER if role in present]
    rest = sorted(role for role in present if role not in ROLE_ORDER and role != NO_ROLE)
    return known + rest + ([NO_ROLE] if NO_ROLE in present else [])


def by_role(people: Iterable[FoundPerson]) -> tuple[RoleGroup, ...]:
    """`people` grouped under their role headings, in the rep's order."""
    groups: dict[str, list[FoundPerson]] = {}
    for person in people:
        groups.setdefault(person.group, []).append(person)
    return tuple(RoleGroup(role, tuple(groups[role])) for role in role_order(groups))


def found_people(store: Store, job_key: int) -> tuple[FoundPerson, ...]:
    """The people a completed contact search found, in the service's order."""
    return tuple(FoundPerson.from_answer(item) for item in store.found_contacts(job_key))


def names_by_id(people: Iterable[FoundPerson]) -> dict[str, str]:
    """Each named person's name by their id as text: how a line about the service's ids
    (a skipped add) names them."""
    return {str(person.id): person.name for person in people if person.id is not None and person.name}


def already_contacts(people: Iterable[FoundPerson], names: set[str], emails: set[str]) -> frozenset[int]:
    """The ids of `people` who are among the company's contacts, whose full `names` and
    `emails` are given lowercased: the same email, else the same full name.

    Neither the search's answer nor the add's (counts only) says who became a contact,
    nor whether a found id is a contact's id, so the cache's contacts of the company,
    synced from the service, are what is shown: an effect the service made."""
    return frozenset(
        person.id for person in people
        if person.id is not None
        and ((person.email or "").lower() in emails or (person.name and person.name.lower() in names))
    )


def people_found(store: Store, job_key: int) -> PeopleFound:
    """The search `job_key` (None when the cache no longer holds it) and its finds."""
    with store.read():
        job = store.get_job(job_key)
        people = found_people(store, job_key)
        company_id = job.company_id if job is not None else None
        company = store.get_company(company_id) if company_id is not None else None
        names, emails = store.contact_names_and_emails(company_id) if company_id is not None else (set(), set())
    return PeopleFound(
        job, company_id, company.name if company is not None else None, people, by_role(people),
        already_contacts(people, names, emails),
    )
