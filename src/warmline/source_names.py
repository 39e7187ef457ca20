"""What the rep reads for each kind of monitoring source a signal scan finds (a page's
`page_type`): the one place a type name becomes words, for the cockpit's lead page
(its sources table) and the command line (`warmline outreach scan-status`).

A module of its own, importing nothing, like `activity_names`, so a cache-only command
can name sources without loading the actions and the HTTP stack.
"""

from __future__ import annotations

SOURCE_NAMES: dict[str, str] = {
    "blog": "Blog",
    "careers": "Careers",
    "press": "Press",
    "company_page": "Company page",
    "company_social": "Company social",
    "contact_social": "Contact's social",
}


def source_name(page_type: str | None) -> str:
    """A human name for a source type the service gives.

    A type this table does not know is returned as the service gave it: the caller
    sanitises it for where it is shown (it is the service's text), and the rep still sees
    which kind the service meant rather than a guess."""
    if not page_type:
        return ""
    return SOURCE_NAMES.get(page_type, page_type)
