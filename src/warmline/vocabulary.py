"""What the rep reads for the kind names the service uses: activity types, monitoring
source types, recommendation actions and job kinds, each a table of words and one function.

One module for every screen and command that names them (the lead page, the queue, the job
monitor, `warmline lead`, `warmline jobs`...). It imports nothing, so a cache-only command
names things without loading Textual, the actions or the HTTP stack (`warmline lead
--no-refresh` took 0.42 s of CPU with the actions loaded instead of 0.19 s). An unknown name
is shown in words, never snake_case, or as the service gave it where the rep should see
which kind it meant; the caller sanitises it (it is the service's text). `--json` keeps the
raw names: scripts match on them.
"""

from warmline.named_tuple import NamedTuple


def plural(count: int, word: str, words: str | None = None) -> str:
    """ "1 company", "1,200 companies": the count, and the word in its number (`words`, or
    `word` with an s)."""
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


# --- activity types (a touchpoint's `detected_type`) ---------------------------------------

ACTIVITY_NAMES: dict[str, str] = {
    "email": "Email",
    "call": "Call",
    "meeting": "Meeting",
    "professional_network_message": "LinkedIn message",
    "comment": "Comment",
    "like": "Like",
    "follow": "Follow",
    "share": "Share",
    "event": "Event",
    "other": "Other",
}


def activity_name(kind: str | None) -> str:
    """A human name for a service type; an unknown type is shown in words, not snake_case."""
    if not kind:
        return "Activity"
    return ACTIVITY_NAMES.get(kind) or kind.replace("_", " ").capitalize()


# --- monitoring source types (a page's `page_type`) -------------------------------------

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


# --- recommendation actions (a card's `action_type`) -------------------------------------

RECOMMENDATION_ACTIONS: dict[str, str] = {
    "comment": "Comment",
    "follow": "Follow",
    "like": "Like",
    "share_content": "Share content",
    "check_in": "Check in",
    "congratulate": "Congratulate",
}


def recommendation_action(action_type: str | None) -> str:
    """A recommendation's action in words; an unknown one in words too, not snake_case
    (the caller sanitises it: it is the service's text)."""
    if not action_type:
        return ""
    return RECOMMENDATION_ACTIONS.get(action_type) or action_type.replace("_", " ").capitalize()


# --- job kinds (the `kind` of a search, a research run, a scan, a generation) ------------

class KindName(NamedTuple):
    """A job kind in words: `short` for a Kind column (the job monitor, the prospecting
    hub, `warmline jobs`: whole at 80 columns, at most `KIND_WIDTH` cells), `full` for
    sentences and titles ("Company deep search is running")."""

    short: str
    full: str


KIND_NAMES: dict[str, KindName] = {
    "deep_search": KindName("Deep search", "Company deep search"),
    "company_research": KindName("Research", "Company research"),
    "contact_search": KindName("People search", "Contact search"),
    "research_run": KindName("Research run", "Research run"),
    "signal_scan": KindName("Signal scan", "Signal scan"),
    "recommendations": KindName("Recs", "Recommendations"),
    "generate_recommendations": KindName("Recs", "Recommendations"),
}
"""The one table of job kinds in words, for every place that lists jobs."""
KIND_WIDTH = max(len(name.short) for name in KIND_NAMES.values())


def kind_label(kind: str) -> str:
    """The kind as a sentence names it ("Company deep search"); an unknown one in words."""
    name = KIND_NAMES.get(kind)
    return name.full if name is not None else kind.replace("_", " ").capitalize()


def kind_short(kind: str) -> str:
    """The kind as a Kind column shows it ("Deep search"); an unknown one in words."""
    name = KIND_NAMES.get(kind)
    return name.short if name is not None else kind.replace("_", " ").capitalize()
