"""Companies, contacts, their custom field schemas and tags, research templates, and
cached instant-lookup answers: the prospecting side of the cache."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from warmline.store.clock import iso
from warmline.store.database import Database
from warmline.store.mapping import company_columns, contact_columns, dumps, template_columns, unwrap
from warmline.store.paging import Listing, Order, count_rows, has_table, page_ids, text_filter
from warmline.store.rows import CompanyRow, ContactRow, ResearchTemplate, json_object
from warmline.store.values import JsonMap, JsonObject, SqlRow, column
from warmline.store.writers import not_among

COMPANIES = Listing("companies", fts_column="search_text", name_column="name_lower", name_index="companies_name")
CONTACTS = Listing("contacts", fts_column="search_text", name_column="name_lower", name_index="contacts_name")
_BY_NAME = (("name_lower", "ASC"), ("id", "ASC"))
COMPANY_ORDER = Order(_BY_NAME, "companies_name")
CONTACT_ORDER = Order(_BY_NAME, "contacts_name")
CONTACT_BY_COMPANY_ORDER = Order(_BY_NAME, "contacts_company")
ENTITIES = ("companies", "contacts")
IDS_PER_QUERY = 500  # well under SQLite's limit on bound parameters


R = TypeVar("R")


def _valid(items: Iterable[JsonMap]) -> list[JsonMap]:
    return [i for i in items if isinstance(i, Mapping) and i.get("id") is not None]


class DirectoryStore(Database):
    """Prospecting data; mixed into `warmline.store.Store`."""

    # --- companies ------------------------------------------------------------------------

    def upsert_companies(self, items: Iterable[JsonMap]) -> int:
        rows = [company_columns(c) for c in _valid(items)]
        with self.write():
            self.db.table("companies").upsert_all(rows, pk="id")
        return len(rows)

    def companies_page(self, text: str = "", offset: int = 0, limit: int = 200) -> list[CompanyRow]:
        """Companies by name; `text` matches name or domain (see `warmline.store.paging`)."""
        with self.read() as conn:
            total = self.company_count(text) if offset > 0 else None
            flt = text_filter(conn, COMPANIES, text, has_table(conn, "companies_fts"))
            ids = page_ids(conn, COMPANIES, COMPANY_ORDER, [], [], flt, max(0, offset), max(0, limit), total)
            return self._in_order("companies", ids, CompanyRow.from_row)

    def company_count(self, text: str = "") -> int:
        with self.read() as conn:
            flt = text_filter(conn, COMPANIES, text, has_table(conn, "companies_fts"))
            return count_rows(conn, COMPANIES, [], [], flt)

    def companies_named(self, start: str, limit: int) -> list[tuple[int, str]]:
        """(id, name) of the cached companies whose name starts with `start` (any case), by name:
        how a company is named on the command line or in a form."""
        needle = start.lower()
        found = self.rows(
            "SELECT id, name FROM companies WHERE name_lower >= ? AND substr(name_lower, 1, ?) = ?"
            " ORDER BY name_lower, id LIMIT ?",
            (needle, len(needle), needle, limit),
        )
        return [(column(row["id"], int), str(row["name"])) for row in found]

    def company_names(self, company_ids: Iterable[int]) -> dict[int, str]:
        """The name of each of these companies the cache holds: the contacts list says which
        company each contact is at, a page at a time."""
        wanted = sorted(set(company_ids))
        names: dict[int, str] = {}
        for start in range(0, len(wanted), IDS_PER_QUERY):
            chunk = wanted[start : start + IDS_PER_QUERY]
            marks = ", ".join("?" for _ in chunk)
            for row in self.rows(f"SELECT id, name FROM companies WHERE id IN ({marks})", chunk):
                names[column(row["id"], int)] = str(row["name"] or "")
        return names

    def get_company(self, company_id: int) -> CompanyRow | None:
        found = self.row("SELECT * FROM companies WHERE id = ?", (company_id,))
        return None if found is None else CompanyRow.from_row(found)

    def delete_companies(self, ids: Iterable[int]) -> None:
        with self.write() as conn:
            conn.executemany("DELETE FROM companies WHERE id = ?", ((i,) for i in ids))

    # --- contacts ----------------------------------------------------------------------------

    def upsert_contacts(self, items: Iterable[JsonMap]) -> int:
        rows = [contact_columns(c) for c in _valid(items)]
        with self.write():
            self.db.table("contacts").upsert_all(rows, pk="id")
        return len(rows)

    def contacts_page(
        self, text: str = "", company_id: int | None = None, offset: int = 0, limit: int = 200
    ) -> list[ContactRow]:
        """Contacts by name, optionally of one company; `text` matches name or email."""
        where, params = (["contacts.company_id = ?"], [company_id]) if company_id is not None else ([], [])
        order = CONTACT_BY_COMPANY_ORDER if company_id is not None else CONTACT_ORDER
        with self.read() as conn:
            total = self.contact_count(text, company_id) if offset > 0 else None
            flt = text_filter(conn, CONTACTS, text, has_table(conn, "contacts_fts"))
            ids = page_ids(conn, CONTACTS, order, where, params, flt, max(0, offset), max(0, limit), total)
            return self._in_order("contacts", ids, ContactRow.from_row)

    def contact_count(self, text: str = "", company_id: int | None = None) -> int:
        where, params = (["contacts.company_id = ?"], [company_id]) if company_id is not None else ([], [])
        with self.read() as conn:
            flt = text_filter(conn, CONTACTS, text, has_table(conn, "contacts_fts"))
            return count_rows(conn, CONTACTS, where, params, flt)

    def get_contact(self, contact_id: int) -> ContactRow | None:
        found = self.row("SELECT * FROM contacts WHERE id = ?", (contact_id,))
        return None if found is None else ContactRow.from_row(found)

    def contact_names_and_emails(self, company_id: int) -> tuple[set[str], set[str]]:
        """The company's cached contacts' full names and emails, lowercased: how a person a
        contact search found is known as one of them (`warmline.store.people_found`). A
        contact made offline (a local id, below 0) is left out: the service has not made it."""
        rows = self.rows(
            "SELECT name_lower, lower(email) AS email FROM contacts WHERE company_id = ? AND id > 0", (company_id,)
        )
        return (
            {str(row["name_lower"]) for row in rows if row["name_lower"]},
            {str(row["email"]) for row in rows if row["email"]},
        )

    def delete_contacts(self, ids: Iterable[int]) -> None:
        with self.write() as conn:
            conn.executemany("DELETE FROM contacts WHERE id = ?", ((i,) for i in ids))

    def cached_ids(self, entity: str) -> list[int]:
        """Every cached company or contact id: a refresh of the whole list drops those it misses."""
        if entity not in ENTITIES:
            raise ValueError(f"entity must be one of {ENTITIES}")
        return self.ids(f"SELECT id FROM {entity}")

    def _in_order(self, table: str, ids: list[int], make: Callable[[SqlRow], R]) -> list[R]:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        by_id = {r["id"]: r for r in self.rows(f"SELECT * FROM {table} WHERE id IN ({marks})", ids)}
        return [make(by_id[i]) for i in ids if i in by_id]

    # --- tags and custom field schemas ----------------------------------------------------------

    def set_tags(self, entity: str, entity_id: int, tags: Iterable[str]) -> None:
        """Tags of a company or contact (`GET /v1/{entity}/:id/tags`)."""
        if entity not in ENTITIES:
            raise ValueError(f"entity must be one of {ENTITIES}")
        values = [str(t) for t in tags]
        with self.write() as conn:
            conn.execute(
                f"UPDATE {entity} SET tags = ?, raw = json_set(raw, '$.tags', json(?)) WHERE id = ?",
                (dumps(values), dumps(values), entity_id),
            )

    def upsert_field_schemas(self, entity: str, fields: Iterable[JsonMap]) -> None:
        """The custom field schema of companies or contacts: replaced as a whole."""
        if entity not in ENTITIES:
            raise ValueError(f"entity must be one of {ENTITIES}")
        rows = [
            {"entity": entity, "key": str(f["key"]), "name": f.get("name"), "type": f.get("type"), "position": i, "raw": dumps(dict(f))}
            for i, f in enumerate(fields)
            if isinstance(f, Mapping) and f.get("key") is not None
        ]
        with self.write() as conn:
            conn.execute("DELETE FROM field_schemas WHERE entity = ?", (entity,))
            if rows:
                self.db.table("field_schemas").insert_all(rows)

    def field_schemas(self, entity: str) -> list[SqlRow]:
        return self.rows(
            "SELECT key, name, type FROM field_schemas WHERE entity = ? ORDER BY position", (entity,)
        )

    def custom_field_keys(self, entity: str) -> list[str]:
        """Every custom field key the cached companies or contacts carry, sorted (an export's
        columns: keys the schema does not list are columns too)."""
        if entity not in ENTITIES:
            raise ValueError(f"entity must be one of {ENTITIES}")
        found = self.rows(
            f"SELECT DISTINCT j.key AS key FROM {entity}, json_each({entity}.custom_fields) AS j"
            f" WHERE json_valid({entity}.custom_fields) ORDER BY j.key"
        )
        return [str(row["key"]) for row in found]

    # --- research templates --------------------------------------------------------------------

    def upsert_templates(self, items: Iterable[JsonMap], full_list: bool = True) -> int:
        rows = [template_columns(t) for t in items if isinstance(t, Mapping) and t.get("id") is not None]
        with self.write() as conn:
            if full_list:
                unlisted, keep = not_among("id", [r["id"] for r in rows])
                conn.execute(f"DELETE FROM research_templates WHERE {unlisted}", keep)
            if rows:
                self.db.table("research_templates").upsert_all(rows, pk="id")
        return len(rows)

    def templates(self) -> list[ResearchTemplate]:
        return [
            ResearchTemplate.from_row(r)
            for r in self.rows("SELECT * FROM research_templates ORDER BY name_lower, id")
        ]

    def find_template(self, id_or_name: str) -> ResearchTemplate | None:
        """By id, or by name matched case-insensitively (as the service does)."""
        found = self.row(
            "SELECT * FROM research_templates WHERE id = ? OR name_lower = ? ORDER BY id = ? DESC LIMIT 1",
            (id_or_name, id_or_name.strip().lower(), id_or_name),
        )
        if found is None:
            return None
        return ResearchTemplate.from_row(found)

    # --- instant lookup answers ------------------------------------------------------------------

    @staticmethod
    def _lookup_key(request: JsonMap) -> str:
        import hashlib  # deferred: command line (only a cached lookup's key needs it)

        canonical = dumps({k: request[k] for k in sorted(request)})
        return hashlib.sha256(canonical.encode()).hexdigest()

    def save_lookup(self, request: JsonMap, response: JsonMap) -> None:
        """Keep a lookup's answer: it cost a lookup from the plan, so it can be reread offline."""
        body = unwrap(response)
        with self.write() as conn:
            conn.execute(
                "INSERT INTO lookups (key, request, response, fetched_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(key) DO UPDATE SET response = excluded.response, fetched_at = excluded.fetched_at",
                (self._lookup_key(request), dumps(dict(request)), dumps(body), iso(self.clock())),
            )
            saved = [c for c in body.get("companies") or [] if isinstance(c, Mapping) and c.get("saved_company_id")]
            if saved:
                rows = [company_columns({**c, "id": c["saved_company_id"]}) for c in saved]
                # Do not overwrite richer records (tags, custom fields) we may already hold.
                existing = {r["id"] for r in self.rows(
                    f"SELECT id FROM companies WHERE id IN ({', '.join('?' for _ in rows)})", [r["id"] for r in rows]
                )}
                fresh = [r for r in rows if r["id"] not in existing]
                if fresh:
                    self.db.table("companies").insert_all(fresh, pk="id")

    def cached_lookup(self, request: JsonMap) -> JsonObject | None:
        found = self.row("SELECT response, fetched_at FROM lookups WHERE key = ?", (self._lookup_key(request),))
        if found is None:
            return None
        return {**json_object(found["response"]), "fetched_at": found["fetched_at"]}

    def update_lookup_answer(self, request: JsonMap, response: JsonMap) -> None:
        """Keep a cached lookup answer's rows up to date (results saved since it was fetched)
        without changing when it was fetched; nothing when that lookup is not cached."""
        with self.write() as conn:
            conn.execute(
                "UPDATE lookups SET response = ? WHERE key = ?", (dumps(unwrap(response)), self._lookup_key(request))
            )
