"""Company and contact records as commands, one piece serving both kinds: the cached
list, and show, fields, tags, create, edit and delete.

`warmline.commands.companies` and `warmline.commands.contacts` own their groups and add
these commands to them (`add_record_commands`); every call that differs between the two
kinds is the record kind's (`warmline.record_kinds.RecordKind`), and what differs in how
they are shown is `Records`'. Each command is built by one small function from the kind's
`Records`, so no command is written twice.

The lists read the cache, paged from SQLite since it may hold 100,000 records (`--refresh`
fetches them all first). Editing and deleting, and reading the field schemas and tags, are
direct requests (online only; offline they exit 4), since the service's answer is the
point. Creating is one too, except offline: the new record is then queued under a local
id, as in the cockpit (issue 23).

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

from warmline.commands.acted import acted_json, echo_acted, no_prompt
from warmline.commands.common import (
    ID_MAX,
    CommandError,
    echo_json,
    note,
    open_config,
    open_store,
    pad,
    plain,
    print_table,
    queue_action,
)
from warmline.commands.direct import direct_request
from warmline.exit_codes import (
    EXIT_AUTH,
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_OFFLINE,
)
from warmline.record_kinds import COMPANY_RECORDS, CONTACT_RECORDS, Model, RecordKind, Row
from warmline.store.rows import CompanyRow, ContactRow
from warmline.textsafe import json_dumps
from warmline.wiring import WiringError, make_engine

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
    return resolve_companies(store, [ref])[0]


def resolve_companies(store: Store, refs: Sequence[str]) -> list[CompanyRef]:
    """The cached companies `refs` name, each once, in the order first named; every name
    that does not name one is said in one line of bad input (2)."""
    from warmline import prospecting  # deferred: command line

    try:
        return prospecting.resolve_companies(store, refs)
    except prospecting.NoSuchCompany as exc:
        raise CommandError(f"{exc} (run `warmline companies --refresh`)", EXIT_BAD_INPUT) from None
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
    cells: Callable[[Row, Mapping[int, str]], list[object]]
    """A row's table cells, given the names of the companies the listed rows name."""
    resolve: Callable[[Store, str], int]
    ref_metavar: str
    """How a command's help names one record: COMPANY (an id or a name) or CONTACT_ID."""
    list_command: str
    """The command that lists them (`companies` lists by itself; `contacts` has `list`)."""

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
    lambda r, _: [r.id, r.name, r.domain or "", r.industry or "", r.country or "", r.size or "", ", ".join(r.tags),
                  r.ai_tag or ""],
    lambda store, ref: resolve_company(store, ref).id,
    "COMPANY",
    "warmline companies",
)
CONTACTS: Records[ContactRow, Contact] = Records(
    CONTACT_RECORDS, CONTACT_FIELDS,
    ("ID", "NAME", "TITLE", "ROLE", "EMAIL", "COMPANY", "TAGS"),
    # The company by name; by id when the cache does not hold it (the id still names it).
    lambda r, companies: [r.id, r.name, r.title or "", r.role or "", r.email or "",
                          companies.get(r.company_id, r.company_id) if r.company_id is not None else "",
                          ", ".join(r.tags)],
    _contact_id,
    "CONTACT_ID",
    "warmline contacts list",
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


def list_records(records: Records[Row, Model], search: str, limit: int | None, refresh: bool, as_json: bool,
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
                count = direct_request(config, store, lambda client: records.kind.refresh_all(make_engine(store, config, client).refresher))
                note(f"Fetched {count} {records.plural}.")
            except (ApiError, CommandError, WiringError) as exc:
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
        shown = list(rows)
        companies = store.company_names(
            company_id for row in shown if isinstance(company_id := getattr(row, "company_id", None), int)
        )
        listed = [records.cells(r, companies) for r in shown]
        if not listed:
            note(f"No {records.plural} in the cache" + (f" match {search!r}." if search else f". Try `{records.list_command} --refresh`."))
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
    """A record field from the command line: empty clears it; a company is named by its id
    or the start of its name (made its id by `save_record`, which has the cache)."""
    return None if raw == "" else raw


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


# --- the commands, each built from the kind's `Records` --------------------------------------------


def add_record_commands(group: click.Group, records: Records[Row, Model]) -> None:
    """show, fields, tags, create, edit, delete: the same for companies and contacts."""
    for build in (show_command, fields_command, tags_command, create_command, edit_command, delete_command):
        group.add_command(build(records))


def _json_option(help_text: str) -> click.Option:
    return click.Option(["--json", "as_json"], is_flag=True, help=help_text)


RECORD_JSON_HELP = "Print JSON (fields: see docs/cli.md)."


def _ref_argument(records: Records[Row, Model]) -> click.Argument:
    return click.Argument(["ref"], metavar=records.ref_metavar)


def _edit_options(records: Records[Row, Model]) -> list[click.Parameter]:
    """The options `create` and `edit` share: they read a record's fields alike."""
    settable = ", ".join(f for f in records.fields if f not in ("id", "tags", "custom_fields", "source", "ai_tag"))
    return [
        click.Option(["--set", "sets"], multiple=True, metavar="FIELD=VALUE",
                     help=f"A {records.noun} field ({settable}); repeat."
                          + (" company_id: the company's id or the start of its name." if "company_id" in records.fields else "")),
        click.Option(["--tag", "tags"], multiple=True, help="A tag; repeat. Replaces the tag list."),
        click.Option(["--custom", "custom"], multiple=True, metavar="KEY=VALUE",
                     help="A custom field, read by its type in the cached schema (a number, yes/no, "
                          "YYYY-MM-DD, a web address, a list as a;b); a key the schema does not know: "
                          "JSON when it is (42, true, [\"a\"]), else text. Repeat."),
        _json_option(RECORD_JSON_HELP),
    ]


def show_command(records: Records[Row, Model]) -> click.Command:
    noun = records.noun
    return click.Command(
        "show", callback=partial(show_record, records), epilog=EXIT_CODES_HELP,
        help=f"One cached {noun} with its tags and custom fields.",
        params=[
            _ref_argument(records),
            click.Option(["--refresh"], is_flag=True, help=f"Fetch the {noun} from the service first (the cached one if offline)."),
            _json_option(RECORD_JSON_HELP),
        ],
    )


def show_record(records: Records[Row, Model], ref: str, refresh: bool, as_json: bool) -> None:
    from warmline.sync.requests import dump  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        record_id = records.resolve(store, ref)
        if refresh:
            try:
                fresh = direct_request(config, store, lambda client: records.kind.fetch(client, record_id))
                records.kind.upsert(store, [dump(fresh)])
            except (CommandError, WiringError) as exc:
                if exc.exit_code not in (EXIT_OFFLINE, EXIT_AUTH):
                    raise
                note(f"Showing the cached {records.noun} ({exc})")
        row = records.kind.cached(store, record_id)
        if row is None:
            raise CommandError(
                f"{records.noun} {record_id} is not in the cache (try `warmline {records.plural} --refresh`)",
                EXIT_BAD_INPUT,
            )
        if as_json:
            echo_json(record_json(records, row))
        else:
            _show_record(records, row)


def fields_command(records: Records[Row, Model]) -> click.Command:
    return click.Command(
        "fields", callback=partial(show_fields, records), epilog=EXIT_CODES_HELP,
        help=f"The custom field schema of {records.plural} (from the service).",
        params=[_json_option("Print JSON: [{key, name, type}].")],
    )


def show_fields(records: Records[Row, Model], as_json: bool) -> None:
    from warmline.sync.requests import dump  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        schema = [dump(f) for f in direct_request(config, store, records.kind.field_schema)]
        store.upsert_field_schemas(records.plural, schema)
        if as_json:
            echo_json([{k: f.get(k) for k in ("key", "name", "type")} for f in schema])
        else:
            print_table(["KEY", "TYPE", "NAME"], [[f.get("key"), f.get("type") or "", f.get("name") or ""] for f in schema])


def tags_command(records: Records[Row, Model]) -> click.Command:
    return click.Command(
        "tags", callback=partial(show_tags, records), epilog=EXIT_CODES_HELP,
        help=f"The tags of one {records.noun} (from the service).",
        params=[_ref_argument(records), _json_option("Print JSON: a list of tags.")],
    )


def show_tags(records: Records[Row, Model], ref: str, as_json: bool) -> None:
    config = open_config()
    with open_store(config) as store:
        record_id = records.resolve(store, ref)
        found = direct_request(config, store, lambda client: records.kind.tags(client, record_id))
        store.set_tags(records.plural, record_id, found)
        if as_json:
            echo_json(found)
        else:
            click.echo("\n".join(plain(t) for t in found) if found else "No tags.")


def create_command(records: Records[Row, Model]) -> click.Command:
    return click.Command(
        "create", callback=partial(save_record, records, None), epilog=EXIT_CODES_HELP,
        help=f"Create a {records.noun} on the service; offline, it is queued and created at the next sync.",
        params=_edit_options(records),
    )


def edit_command(records: Records[Row, Model]) -> click.Command:
    return click.Command(
        "edit", callback=partial(save_record, records), epilog=EXIT_CODES_HELP,
        help=f"Change some fields of a {records.noun} on the service (online only); custom fields are merged.",
        params=[_ref_argument(records), *_edit_options(records)],
    )


def save_record(
    records: Records[Row, Model], ref: str | None, sets: tuple[str, ...], tags: tuple[str, ...],
    custom: tuple[str, ...], as_json: bool,
) -> None:
    """Create (no `ref`) or edit a record: one path, so both read their options alike."""
    from warmline.records import save_record as save  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        body = _record_body(sets, tags, custom, store.field_schemas(records.plural))
        if isinstance(body.get("company_id"), str):  # as the cockpit's contact form reads it
            body["company_id"] = resolve_company(store, body["company_id"]).id
        record_id = None if ref is None else records.resolve(store, ref)
        try:
            record = direct_request(config, store, lambda client: save(store, client, records.kind.entity, body, record_id))
        except CommandError as exc:
            if ref is not None or records.kind.entity not in ("contacts", "companies") or exc.exit_code != EXIT_OFFLINE:
                raise
            _queue_record(store, records.kind.entity, body, as_json)  # a record made offline is queued, not lost
            return
        _saved(records, store, record, as_json, "Created" if ref is None else "Updated")


def _queue_record(store: Store, entity: str, body: dict[str, Any], as_json: bool) -> None:
    """Offline: the contact or company is queued under a local id (`actions.create_contact`,
    `actions.create_company`), shown pending, and created on the service at the next sync."""
    from warmline.actions.companies import create_company  # deferred: command line
    from warmline.actions.contacts import create_contact  # deferred: command line

    create = create_company if entity == "companies" else create_contact
    noun = "company" if entity == "companies" else "contact"
    queued = queue_action(lambda: create(store, body))
    if as_json:
        echo_acted(store, [queued.op_id], local_id=queued.local_id)
        return
    click.echo(
        f"Offline: queued {noun} {queued.local_id} (pending); it is created on the service at the next"
        " sync (`warmline outbox` shows it)."
    )


def _saved(records: Records[Row, Model], store: Store, record: dict[str, Any], as_json: bool, verb: str) -> None:
    row = records.kind.cached(store, record["id"])
    if row is None:  # deleted by another process in between
        raise CommandError(f"{verb} {records.noun} {record['id']}, but it is no longer in the cache", EXIT_ERROR)
    if as_json:
        echo_json(record_json(records, row))
    else:
        click.echo(f"{verb} {records.noun} {row.id}.")
        _show_record(records, row)


def delete_command(records: Records[Row, Model]) -> click.Command:
    return click.Command(
        "delete", callback=partial(delete_record, records), epilog=EXIT_CODES_HELP,
        help=f"Delete a {records.noun} on the service (online only); asks first unless --yes.",
        params=[
            _ref_argument(records),
            click.Option(["--yes", "-y"], is_flag=True, help="Do not ask for confirmation."),
            _json_option("Print JSON: what was deleted (see docs/cli.md); needs --yes."),
        ],
    )


def delete_record(records: Records[Row, Model], ref: str, yes: bool, as_json: bool) -> None:
    from warmline.records import delete_record as delete  # deferred: command line

    no_prompt(as_json, yes)
    config = open_config()
    with open_store(config) as store:
        record_id = records.resolve(store, ref)
        row = records.kind.cached(store, record_id)
        label = f"{plain(row.name)} ({record_id})" if row is not None and row.name else f"{records.noun} {record_id}"
        if not yes and not click.confirm(f"Delete {label}? This cannot be undone.", err=True):
            raise CommandError("Nothing deleted.", EXIT_ERROR)
        direct_request(config, store, lambda client: delete(store, client, records.kind.entity, record_id))
        if as_json:  # a direct request: no op was queued, the service has deleted it
            echo_json(acted_json([], deleted={"kind": records.noun, "id": record_id}))
        else:
            click.echo(f"Deleted {label}.")
