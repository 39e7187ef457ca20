"""Company and contact records as commands: `companies` (the cached list) and `contacts
list`, then show, fields, tags, create, edit and delete, the same for both.

The lists read the cache, paged from SQLite since it may hold 100,000 records (`--refresh`
fetches them all first). Creating, editing and deleting, and reading the field schemas
and tags, are direct requests (online only; offline they exit 4), since the service gives
the ids and its answer is the point. The prospecting commands that start from a company
(`contacts search`, `found`, `add`; `companies research`) join these groups from
`warmline.commands.prospecting`, which also reuses how a COMPANY is resolved and how
custom fields are printed.

COMPANY is a company id or an unambiguous start of a cached company's name; CONTACT_ID a
contact id. Exit codes as for the other headless commands (docs/cli.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Generic

import click

from warmline.commands.acted import acted_json, no_prompt
from warmline.commands.common import (
    ID_MAX,
    CommandError,
    NumberType,
    echo_json,
    make_engine,
    note,
    open_config,
    open_store,
    pad,
    plain,
    print_table,
)
from warmline.commands.direct import direct_request
from warmline.exit_codes import (
    EXIT_AUTH,
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_OFFLINE,
)
from warmline.numbers import whole_number
from warmline.record_kinds import COMPANY_RECORDS, CONTACT_RECORDS, Model, RecordKind, Row
from warmline.store.rows import CompanyRow, ContactRow
from warmline.textsafe import json_dumps

if TYPE_CHECKING:
    from warmline.api.models import Company, Contact
    from warmline.prospecting import CompanyRef
    from warmline.store import Store

COMPANY_FIELDS = (
    "id", "name", "domain", "industry", "country", "region", "size", "description", "tags",
    "custom_fields", "source", "ai_tag",
)
CONTACT_FIELDS = (
    "id", "company_id", "first_name", "last_name", "title", "role", "email", "phone", "social_url",
    "tags", "custom_fields",
)
PAGE = 500
Page = Callable[[str, int, int], Sequence[Row]]
"""One page of a cached list: (search text, offset, limit) -> rows."""


def resolve_company(store: Store, ref: str) -> CompanyRef:
    """The cached company a COMPANY argument names; an unknown or ambiguous one is bad input (2)."""
    from warmline import prospecting  # deferred: command line

    try:
        return prospecting.resolve_company(store, ref)
    except (LookupError, ValueError) as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


# --- what differs between companies and contacts ---------------------------------------------------


@dataclass(frozen=True)
class Records(Generic[Row, Model]):
    """How the commands show companies or contacts, so that one set of commands serves both;
    the calls that differ between the two are the record kind's (`warmline.record_kinds`)."""

    kind: RecordKind[Row, Model]
    fields: tuple[str, ...]
    headers: tuple[str, ...]
    cells: Callable[[Row], list[object]]
    resolve: Callable[[Store, str], int]

    @property
    def noun(self) -> str:
        return self.kind.noun

    @property
    def plural(self) -> str:
        return self.kind.entity


def _contact_id(store: Store, ref: str) -> int:
    if not ref.strip().isdecimal() or not ref.isascii() or not 1 <= int(ref) <= ID_MAX:
        raise CommandError(f"give a contact id (a whole number from 1 to {ID_MAX}), not {ref!r}", EXIT_BAD_INPUT)
    return int(ref)


COMPANIES: Records[CompanyRow, Company] = Records(
    COMPANY_RECORDS, COMPANY_FIELDS,
    ("ID", "NAME", "DOMAIN", "INDUSTRY", "COUNTRY", "SIZE", "TAGS", "AI TAG"),
    lambda r: [r.id, r.name, r.domain or "", r.industry or "", r.country or "", r.size or "", ", ".join(r.tags), r.ai_tag or ""],
    lambda store, ref: resolve_company(store, ref).id,
)
CONTACTS: Records[ContactRow, Contact] = Records(
    CONTACT_RECORDS, CONTACT_FIELDS,
    ("ID", "NAME", "TITLE", "ROLE", "EMAIL", "COMPANY", "TAGS"),
    lambda r: [r.id, r.name, r.title or "", r.role or "", r.email or "", r.company_id or "", ", ".join(r.tags)],
    _contact_id,
)


def record_json(records: Records[Row, Model], row: Row) -> dict[str, Any]:
    return {name: getattr(row, name) for name in records.fields}


# --- listing ----------------------------------------------------------------------------------------


def _record_rows(page: Page[Row], search: str, limit: int | None) -> Iterator[Row]:
    offset = 0
    while limit is None or offset < limit:
        size = PAGE if limit is None else min(PAGE, limit - offset)
        rows = page(search, offset, size)
        yield from rows
        if len(rows) < size:
            return
        offset += size


def _list_records(records: Records[Row, Model], search: str, limit: int | None, refresh: bool, as_json: bool,
                  page_in: Callable[[Store], Page[Row]] | None = None) -> None:
    """The cached list by name (after fetching it all with `refresh`); JSON item by item,
    since the list may hold 100,000 records. `page_in` reads a narrower list (a company's
    contacts) instead of the whole one."""
    from warmline.api.errors import ApiError  # deferred: command line

    if limit is not None and limit < 1:
        raise CommandError("--limit must be at least 1", EXIT_BAD_INPUT)
    config = open_config()
    with open_store(config) as store:
        page = partial(records.kind.page, store) if page_in is None else page_in(store)
        if refresh:
            try:
                count = direct_request(config, lambda client: records.kind.refresh_all(make_engine(store, config, client).refresher))
                note(f"Fetched {count} {records.plural}.")
            except (ApiError, CommandError) as exc:
                note(f"Showing the cached {records.plural} ({exc})")
        rows = _record_rows(page, search, limit)
        if as_json:
            count = 0
            click.echo("[", nl=False)
            for row in rows:
                click.echo(("," if count else "") + "\n  " + json_dumps(record_json(records, row)), nl=False)
                count += 1
            click.echo("\n]" if count else "]")
            return
        listed = [records.cells(r) for r in rows]
        if not listed:
            note(f"No {records.plural} in the cache" + (f" match {search!r}." if search else f". Try `warmline {records.plural} --refresh`."))
            return
        print_table(records.headers, listed)


# --- one record: reading it from the command line, printing it --------------------------------------


def _assignments(pairs: Sequence[str], option: str, parse: Callable[[str, str], Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"{option} takes FIELD=VALUE (got {pair!r})", EXIT_BAD_INPUT)
        values[key.strip()] = parse(key.strip(), raw)
    return values


def _field_value(key: str, raw: str) -> Any:
    """A record field from the command line: empty clears it; ids are numbers."""
    if raw == "":
        return None
    if key == "company_id":
        company_id = whole_number(raw)
        if company_id is None or not 1 <= company_id <= ID_MAX:
            raise CommandError(f"company_id must be a company id (got {raw!r})", EXIT_BAD_INPUT)
        return company_id
    return raw


def _custom_parser(schema: Sequence[Mapping[str, Any]]) -> Callable[[str, str], Any]:
    """How `--custom KEY=VALUE` is read: by the field's type when the cached schema knows
    the key (as the cockpit's forms read it: `uses_crm=yes` is true, a bad date is refused),
    else as JSON when it reads as JSON (42, true, ["a","b"]), else as text."""
    fields = {str(field["key"]): field for field in schema}

    def parse(key: str, raw: str) -> Any:
        field = fields.get(key)
        if field is not None:
            from warmline.api.errors import InputError  # deferred: command line
            from warmline.records import custom_value  # deferred: command line

            try:
                return custom_value(field, raw)
            except InputError as exc:
                raise CommandError(str(exc), EXIT_BAD_INPUT) from None
        try:
            return json.loads(raw)
        except ValueError:
            return raw

    return parse


def _record_body(
    sets: Sequence[str], tags: Sequence[str], custom: Sequence[str], schema: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    body = _assignments(sets, "--set", _field_value)
    for reserved in ("tags", "custom_fields"):
        if reserved in body:
            raise CommandError(f"use --{'tag' if reserved == 'tags' else 'custom'} for {reserved}", EXIT_BAD_INPUT)
    if tags:
        body["tags"] = [t.strip() for t in tags if t.strip()]
    if custom:
        body["custom_fields"] = _assignments(custom, "--custom", _custom_parser(schema))
    return body


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "; ".join(_shown(v) for v in value)
    return plain(value)


def print_fields(fields: dict[str, Any]) -> None:
    """Custom fields, one `key  value` line each: a record's, and what a research run filled in."""
    for key, value in fields.items():
        click.echo(f"  {pad(plain(key), 22)} {_shown(value)}")


def _show_record(records: Records[Row, Model], row: Row) -> None:
    title = row.name or f"{records.noun} {row.id}"
    click.echo(f"{plain(title)} ({records.noun} {row.id})")
    for name in records.fields:
        value = getattr(row, name)
        if name in ("id", "name", "custom_fields") or value in (None, "", []):
            continue
        click.echo(f"  {name + ':':<13} {_shown(value) if not isinstance(value, list) else plain(', '.join(value))}")
    if row.custom_fields:
        click.echo("Custom fields:")
        print_fields(row.custom_fields)


# --- the commands -----------------------------------------------------------------------------------


def _record_commands(group: click.Group, records: Records[Row, Model]) -> None:
    """show, fields, tags, create, edit, delete: the same for companies and contacts."""
    noun, plural = records.noun, records.plural
    ref_help = "COMPANY" if noun == "company" else "CONTACT_ID"
    edit_options = [
        click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
                     help=f"A {noun} field ({', '.join(f for f in records.fields if f not in ('id', 'tags', 'custom_fields', 'source', 'ai_tag'))}); repeat."),
        click.option("--tag", "tags", multiple=True, help="A tag; repeat. Replaces the tag list."),
        click.option("--custom", "custom", multiple=True, metavar="KEY=VALUE",
                     help="A custom field, read by its type in the cached schema (a number, yes/no, "
                          "YYYY-MM-DD, a web address, a list as a;b); a key the schema does not know: "
                          "JSON when it is (42, true, [\"a\"]), else text. Repeat."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md)."),
    ]

    def with_edit_options(fn: Callable[..., None]) -> Callable[..., None]:
        for option in reversed(edit_options):
            fn = option(fn)
        return fn

    def saved(store: Store, record: dict[str, Any], as_json: bool, verb: str) -> None:
        row = records.kind.cached(store, record["id"])
        if row is None:  # deleted by another process in between
            raise CommandError(f"{verb} {noun} {record['id']}, but it is no longer in the cache", EXIT_ERROR)
        if as_json:
            echo_json(record_json(records, row))
        else:
            click.echo(f"{verb} {noun} {row.id}.")
            _show_record(records, row)

    @group.command("show", epilog=EXIT_CODES_HELP, help=f"One cached {noun} with its tags and custom fields.")
    @click.argument("ref", metavar=ref_help)
    @click.option("--refresh", is_flag=True, help=f"Fetch the {noun} from the service first (the cached one if offline).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
    def show(ref: str, refresh: bool, as_json: bool) -> None:
        from warmline.sync.requests import dump  # deferred: command line

        config = open_config()
        with open_store(config) as store:
            record_id = records.resolve(store, ref)
            if refresh:
                try:
                    fresh = direct_request(config, lambda client: records.kind.fetch(client, record_id))
                    records.kind.upsert(store, [dump(fresh)])
                except CommandError as exc:
                    if exc.exit_code not in (EXIT_OFFLINE, EXIT_AUTH):
                        raise
                    note(f"Showing the cached {noun} ({exc.message})")
            row = records.kind.cached(store, record_id)
            if row is None:
                raise CommandError(f"{noun} {record_id} is not in the cache (try `warmline {plural} --refresh`)", EXIT_BAD_INPUT)
            if as_json:
                echo_json(record_json(records, row))
            else:
                _show_record(records, row)

    @group.command("fields", epilog=EXIT_CODES_HELP, help=f"The custom field schema of {plural} (from the service).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON: [{key, name, type}].")
    def fields(as_json: bool) -> None:
        from warmline.sync.requests import dump  # deferred: command line

        config = open_config()
        with open_store(config) as store:
            schema = [dump(f) for f in direct_request(config, records.kind.field_schema)]
            store.upsert_field_schemas(plural, schema)
            if as_json:
                echo_json([{k: f.get(k) for k in ("key", "name", "type")} for f in schema])
            else:
                print_table(["KEY", "TYPE", "NAME"], [[f.get("key"), f.get("type") or "", f.get("name") or ""] for f in schema])

    @group.command("tags", epilog=EXIT_CODES_HELP, help=f"The tags of one {noun} (from the service).")
    @click.argument("ref", metavar=ref_help)
    @click.option("--json", "as_json", is_flag=True, help="Print JSON: a list of tags.")
    def tags(ref: str, as_json: bool) -> None:
        config = open_config()
        with open_store(config) as store:
            record_id = records.resolve(store, ref)
            found = direct_request(config, lambda client: records.kind.tags(client, record_id))
            store.set_tags(plural, record_id, found)
            if as_json:
                echo_json(found)
            else:
                click.echo("\n".join(plain(t) for t in found) if found else "No tags.")

    def save(ref: str | None, sets: tuple[str, ...], tags: tuple[str, ...], custom: tuple[str, ...], as_json: bool) -> None:
        """Create (no `ref`) or edit a record: one path, so both read their options alike."""
        from warmline.records import save_record  # deferred: command line

        config = open_config()
        with open_store(config) as store:
            body = _record_body(sets, tags, custom, store.field_schemas(plural))
            record_id = None if ref is None else records.resolve(store, ref)
            record = direct_request(config, lambda client: save_record(store, client, records.kind.entity, body, record_id))
            saved(store, record, as_json, "Created" if ref is None else "Updated")

    @group.command("create", epilog=EXIT_CODES_HELP, help=f"Create a {noun} on the service (online only).")
    @with_edit_options
    def create(sets: tuple[str, ...], tags: tuple[str, ...], custom: tuple[str, ...], as_json: bool) -> None:
        save(None, sets, tags, custom, as_json)

    @group.command("edit", epilog=EXIT_CODES_HELP,
                   help=f"Change some fields of a {noun} on the service (online only); custom fields are merged.")
    @click.argument("ref", metavar=ref_help)
    @with_edit_options
    def edit(ref: str, sets: tuple[str, ...], tags: tuple[str, ...], custom: tuple[str, ...], as_json: bool) -> None:
        save(ref, sets, tags, custom, as_json)

    @group.command("delete", epilog=EXIT_CODES_HELP, help=f"Delete a {noun} on the service (online only); asks first unless --yes.")
    @click.argument("ref", metavar=ref_help)
    @click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON: what was deleted (see docs/cli.md); needs --yes.")
    def delete(ref: str, yes: bool, as_json: bool) -> None:
        from warmline.records import delete_record  # deferred: command line

        no_prompt(as_json, yes)
        config = open_config()
        with open_store(config) as store:
            record_id = records.resolve(store, ref)
            row = records.kind.cached(store, record_id)
            label = f"{plain(row.name)} ({record_id})" if row is not None and row.name else f"{noun} {record_id}"
            if not yes and not click.confirm(f"Delete {label}? This cannot be undone.", err=True):
                raise CommandError("Nothing deleted.", EXIT_ERROR)
            direct_request(config, lambda client: delete_record(store, client, records.kind.entity, record_id))
            if as_json:  # a direct request: no op was queued, the service has deleted it
                echo_json(acted_json([], deleted={"kind": noun, "id": record_id}))
            else:
                click.echo(f"Deleted {label}.")


@click.group("companies", invoke_without_command=True, epilog=EXIT_CODES_HELP)
@click.option("--search", "-s", default="", help="Only companies whose name or domain contains this.")
@click.option("--limit", type=NumberType(), default=None, help="At most this many companies.")
@click.option("--refresh", is_flag=True, help="Fetch your whole company list from the service first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
@click.pass_context
def companies_group(ctx: click.Context, search: str, limit: int | None, refresh: bool, as_json: bool) -> None:
    """List your saved companies from the cache, by name; show, create, edit, delete one."""
    if ctx.invoked_subcommand is None:
        _list_records(COMPANIES, search, limit, refresh, as_json)


_record_commands(companies_group, COMPANIES)


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
    _list_records(CONTACTS, search, limit, refresh, as_json,
                  None if company_ref is None else partial(_contacts_of, company_ref))


def _contacts_of(company_ref: str, store: Store) -> Page[ContactRow]:
    """The cached contacts of the company COMPANY names, a page at a time."""
    company_id = resolve_company(store, company_ref).id

    def page(text: str, offset: int, limit: int) -> list[ContactRow]:
        return store.contacts_page(text, company_id=company_id, offset=offset, limit=limit)

    return page


_record_commands(contacts_group, CONTACTS)


COMMANDS = [companies_group, contacts_group]
