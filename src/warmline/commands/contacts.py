"""`warmline contacts`: your contacts, listed from the cache; show, fields, tags, create,
edit and delete one (`warmline.commands.records`, shared with `companies`); and finding
new ones: `search` (a web search for a company's people, a job), `found` (the people it
found) and `add` (make some of them contacts).

`search` and `add` work like the cockpit: the action is queued in the cache first, then
sent at once when the service is reachable (`warmline.commands.delivery`); each says
what it costs (on stderr) before anything is sent.

COMPANY is a company id or an unambiguous start of a cached company's name; CONTACT_ID a
contact id. Exit codes as for the other headless commands (docs/cli.md).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import echo_acted, say
from warmline.commands.common import (
    ID,
    CommandError,
    NumberType,
    echo_json,
    note,
    open_config,
    open_store,
    plain,
    print_table,
    queue_action,
    say_cost,
    short_id,
)
from warmline.commands.delivery import send_now, settled
from warmline.commands.jobs_wait import job_outcome, run_job
from warmline.commands.records import (
    CONTACTS,
    Page,
    add_record_commands,
    list_records,
    resolve_company,
)
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP
from warmline.ops.kinds import JobKind
from warmline.store.people_found import found_people, names_by_id, people_found
from warmline.store.rows import ContactRow

if TYPE_CHECKING:
    from warmline.store import Store
    from warmline.store.rows import Job


@click.group("contacts", epilog=EXIT_CODES_HELP)
def contacts_group() -> None:
    """Your contacts: find the people at a company and add them; list, show, create, edit, delete."""


@contacts_group.command("list", epilog=EXIT_CODES_HELP)
@click.option("--search", "-s", default="", help="Only contacts whose name or email contains this.")
@click.option("--company", "company_ref", default=None, metavar="COMPANY", help="Only the contacts of this company.")
@click.option("--limit", type=NumberType(), default=None, help="At most this many contacts.")
@click.option("--refresh", is_flag=True, help="Fetch your whole contact list from the service first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_list(search: str, company_ref: str | None, limit: int | None, refresh: bool, as_json: bool) -> None:
    """List your contacts from the cache, by name."""
    list_records(CONTACTS, search, limit, refresh, as_json,
                  None if company_ref is None else partial(_contacts_of, company_ref))


def _contacts_of(company_ref: str, store: Store) -> Page[ContactRow]:
    """The cached contacts of the company COMPANY names, a page at a time."""
    company_id = resolve_company(store, company_ref).id

    def page(text: str, offset: int, limit: int) -> list[ContactRow]:
        return store.contacts_page(text, company_id=company_id, offset=offset, limit=limit)

    return page


add_record_commands(contacts_group, CONTACTS)


def _found_contacts(store: Store) -> Callable[[Job], list[dict[str, Any]]]:
    def found(job: Job) -> list[dict[str, Any]]:
        people = people_found(store, job.key)
        return [{**person.as_json(), "in_contacts": person.id in people.in_contacts} for person in people.people]

    return found


def _show_contacts(job: Job, contacts: list[dict[str, Any]]) -> None:
    from warmline.prospecting import group_by_role  # deferred: command line

    if not contacts:
        note("No contacts were found.")
        return
    for role, people in group_by_role(contacts):
        click.echo(f"\n{plain(role).capitalize()}s:")
        print_table(
            ["  ID", "NAME", "TITLE", "EMAIL", "LINK", "IN CONTACTS"],
            [[f"  {c.get('id')}", " ".join(plain(p) for p in (c.get("first_name"), c.get("last_name")) if p),
              c.get("title") or "", c.get("email") or "", c.get("social_url") or "",
              "yes" if c.get("in_contacts") else ""] for c in people],
        )
    note(f"\nAdd the ones you want with `warmline contacts add {job.remote_id} CONTACT_ID...`.")


@contacts_group.command("search", epilog=EXIT_CODES_HELP)
@click.argument("company_ref", metavar="COMPANY")
@click.option("--role", "roles", multiple=True, type=click.Choice(["decision-maker", "champion", "influencer"]),
              help="Only these roles; repeat for several (default: all three).")
@click.option("--wait", is_flag=True, help="Show progress until the search ends, then the people found.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_search(company_ref: str, roles: tuple[str, ...], wait: bool, as_json: bool) -> None:
    """Start a web search for a company's decision-makers, champions and influencers
    (costs 1 deep search). Works offline: queued until the service is reachable."""
    from warmline import actions  # deferred: command line
    from warmline.prospecting import CONTACT_SEARCH  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        company = resolve_company(store, company_ref)
        op_id = queue_action(lambda: actions.start_contact_search(store, company.id, list(roles) or None))
        say_cost(CONTACT_SEARCH)
        say(as_json, f"Queued contact search at {plain(company.label)} (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "contact search", wait, as_json)
        job_outcome(store, op_id, job, "contact search", as_json, _found_contacts(store), _show_contacts)


def _contact_search_job(store: Store, job_id: int) -> Job | None:
    return store.find_job(JobKind.CONTACT_SEARCH, job_id)


@contacts_group.command("found", epilog=EXIT_CODES_HELP)
@click.argument("job_id", type=ID)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_found(job_id: int, as_json: bool) -> None:
    """The people a contact search (JOB_ID, as `warmline jobs` shows it) found, by role (from the cache)."""
    config = open_config()
    with open_store(config) as store:
        job = _contact_search_job(store, job_id)
        if job is None:
            raise CommandError(f"no contact search {job_id} in the cache (see `warmline jobs`)", EXIT_BAD_INPUT)
        if job.status.lower() != "completed":
            raise CommandError(
                f"contact search {job_id} is {plain(job.status)}; its people are listed once it has completed"
                " (`warmline sync` polls it)", EXIT_BAD_INPUT,
            )
        contacts = _found_contacts(store)(job)
        if as_json:
            echo_json(contacts)
        else:
            _show_contacts(job, contacts)


@contacts_group.command("add", epilog=EXIT_CODES_HELP)
@click.argument("job_id", type=ID)
@click.argument("contact_ids", metavar="CONTACT_ID...", type=ID, nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_add(job_id: int, contact_ids: tuple[int, ...], as_json: bool) -> None:
    """Add people found by a completed contact search to your contacts (uses contact capacity).

    Skipped people are explained: already a contact (duplicate) or plan capacity reached.
    """
    from warmline import actions  # deferred: command line
    from warmline.prospecting import ADD_CONTACTS, explain_skips  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        job = _contact_search_job(store, job_id)
        if job is not None and job.status.lower() != "completed":
            raise CommandError(
                f"Job must be completed before adding contacts (contact search {job_id} is {plain(job.status)})",
                EXIT_BAD_INPUT,
            )
        op_id = queue_action(lambda: actions.add_found_contacts(store, job_id, list(contact_ids)))
        say_cost(ADD_CONTACTS, len(set(contact_ids)))
        say(as_json, f"Queued adding {len(set(contact_ids))} contact(s) from search {job_id} (op {short_id(op_id)}).")
        op = settled(store, op_id, send_now(store, config), as_json)
        result = (op.result or {}) if op is not None else None
        if as_json:
            echo_acted(
                store, [op_id],
                added=None if result is None else result.get("added", 0),
                skipped=None if result is None else result.get("skipped", 0),
                skipped_ids=None if result is None else result.get("skipped_ids", []),
            )
            return
        if result is not None:
            click.echo(f"Added {result.get('added', 0)}; skipped {result.get('skipped', 0)}.")
            names = names_by_id(found_people(store, job.key)) if job is not None else {}
            for line in explain_skips(result.get("skipped_ids") or [], names):
                click.echo(f"  skipped {plain(line)}")


COMMANDS = [contacts_group]
