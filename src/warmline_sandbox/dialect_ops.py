"""Which operation a request is: its method and route template, as the dialects name them.

The dialects change particular operations (the lead list's paging, the deal's field
names, ...), so the dialect middleware, which runs outside FastAPI's routing, needs to
know the operation of a request before the routes see it. The templates below are the
routes' own (tests/sandbox/test_dialects.py checks that the app serves each of them);
`routed` asks the app's router itself whether anything serves a path, so a route that
is not listed here is still a route, only one no dialect treats specially.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from starlette.routing import BaseRoute, Match
from starlette.types import Scope

Op = tuple[str, str]
"""(method, route template), e.g. `("PATCH", "/v1/outreach/leads/{lead_id}/status")`."""

HEALTH = "/v1/health"
COMPANIES = "/v1/companies"
COMPANY = "/v1/companies/{company_id}"
COMPANY_FIELDS = "/v1/companies/fields"
COMPANY_TAGS = "/v1/companies/{company_id}/tags"
LOOKUP = "/v1/companies/lookup"
DEEP_SEARCH = "/v1/companies/deep-search"
DEEP_SEARCH_JOB = "/v1/companies/deep-search/{job_id}"
COMPANY_RESEARCH = "/v1/companies/{company_id}/deep-search"
COMPANY_RESEARCH_JOB = "/v1/companies/{company_id}/deep-search/{search_id}"
CONTACTS = "/v1/contacts"
CONTACT = "/v1/contacts/{contact_id}"
CONTACT_FIELDS = "/v1/contacts/fields"
CONTACT_TAGS = "/v1/contacts/{contact_id}/tags"
CONTACT_SEARCH = "/v1/contacts/search"
CONTACT_SEARCH_JOB = "/v1/contacts/search/{job_id}"
CONTACT_SEARCH_ADD = "/v1/contacts/search/{job_id}/add"
TEMPLATES = "/v1/research/templates"
TEMPLATE = "/v1/research/templates/{template_id}"
RUN = "/v1/research/run"
RUN_STATUS = "/v1/research/runs/{run_id}"
OVERVIEW_TEMPLATES = "/v1/research-templates"
OVERVIEW_TEMPLATE = "/v1/research-templates/{template_id}"
OVERVIEW_RUN = "/v1/research-templates/{template_id}/run"
OVERVIEW_RUN_STATUS = "/v1/research-templates/runs/{run_id}"
LEADS = "/v1/outreach/leads"
LEAD = "/v1/outreach/leads/{lead_id}"
LEAD_STATUS = LEAD + "/status"
TARGET_SCORE = LEAD + "/target-score"
SIGNAL_SCAN = LEAD + "/signal-scan"
MONITORING_PAGE = LEAD + "/monitoring-pages/{page_id}"
RECOMMENDATIONS = LEAD + "/recommendations"
GENERATE = LEAD + "/recommendations/generate"
COMPLETE = LEAD + "/recommendations/{rec_id}/complete"
DISMISS = LEAD + "/recommendations/{rec_id}/dismiss"
TOUCHPOINTS = LEAD + "/touchpoints"
NOTES = LEAD + "/notes"
KEY_CONTACT = LEAD + "/contacts/{contact_id}"
DEAL = LEAD + "/deal"
COMPETITORS = LEAD + "/competitors"
COMPETITOR_SCAN = LEAD + "/competitors/{competitor_id}/scan"
COMPETITOR = LEAD + "/competitors/{competitor_id}"

OPERATIONS: tuple[Op, ...] = (
    # Literal paths before the templates they would also match (as the app orders them).
    ("GET", HEALTH),
    ("POST", LOOKUP),
    ("POST", DEEP_SEARCH), ("GET", DEEP_SEARCH_JOB),
    ("POST", COMPANY_RESEARCH), ("GET", COMPANY_RESEARCH_JOB),
    ("POST", CONTACT_SEARCH), ("GET", CONTACT_SEARCH_JOB), ("POST", CONTACT_SEARCH_ADD),
    ("GET", COMPANIES), ("POST", COMPANIES), ("GET", COMPANY_FIELDS),
    ("GET", COMPANY), ("PUT", COMPANY), ("DELETE", COMPANY), ("GET", COMPANY_TAGS),
    ("GET", CONTACTS), ("POST", CONTACTS), ("GET", CONTACT_FIELDS),
    ("GET", CONTACT), ("PUT", CONTACT), ("DELETE", CONTACT), ("GET", CONTACT_TAGS),
    ("GET", TEMPLATES), ("GET", TEMPLATE), ("POST", RUN), ("GET", RUN_STATUS),
    ("GET", OVERVIEW_TEMPLATES), ("GET", OVERVIEW_RUN_STATUS), ("GET", OVERVIEW_TEMPLATE), ("POST", OVERVIEW_RUN),
    ("GET", LEADS), ("POST", LEADS), ("DELETE", LEADS), ("GET", LEAD),
    ("PATCH", LEAD_STATUS), ("PATCH", TARGET_SCORE), ("POST", SIGNAL_SCAN), ("GET", SIGNAL_SCAN),
    ("PATCH", MONITORING_PAGE), ("GET", RECOMMENDATIONS), ("POST", GENERATE), ("POST", COMPLETE),
    ("POST", DISMISS), ("POST", TOUCHPOINTS), ("GET", NOTES), ("POST", NOTES), ("PATCH", KEY_CONTACT),
    ("PATCH", DEAL), ("POST", COMPETITORS), ("POST", COMPETITOR_SCAN), ("PATCH", COMPETITOR),
)
"""Every operation of the spec the sandbox serves, in the order they are matched."""

LISTS: dict[Op, str] = {("GET", COMPANIES): "companies", ("GET", CONTACTS): "contacts", ("GET", LEADS): "leads"}
"""The paginated lists, by the name of what they list."""


@dataclass(frozen=True)
class Operation:
    """One request's operation: `(method, template)` and the values of the template's parameters."""

    method: str
    template: str
    params: Mapping[str, str] = field(default_factory=dict)

    @property
    def key(self) -> Op:
        return (self.method, self.template)

    def path(self, **changed: str) -> str:
        """The operation's path with some parameters replaced (`run_id=...`)."""
        if not self.params:
            return self.template  # an operation no dialect knows: its template is its path
        values = {**self.params, **changed}
        return re.sub(r"\{(\w+)\}", lambda match: values[match.group(1)], self.template)


def _compile(template: str) -> re.Pattern[str]:
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
    return re.compile(pattern + r"\Z")


_PATTERNS: tuple[tuple[Op, re.Pattern[str]], ...] = tuple((op, _compile(op[1])) for op in OPERATIONS)


def find_operation(method: str, path: str) -> Operation:
    """The operation of a request the app routes; one no dialect knows is its own template."""
    for (op_method, template), pattern in _PATTERNS:
        if op_method == method:
            match = pattern.match(path)
            if match:
                return Operation(method, template, match.groupdict())
    return Operation(method, path)


def routed(routes: Iterable[BaseRoute], scope: Scope, method: str, path: str) -> bool:
    """Whether the app has a route for this method and path (Starlette's own matching).

    A path served for other methods only is not routed: the service answers it as an
    unknown route, as express does.
    """
    probe = {**scope, "type": "http", "method": method, "path": path, "path_params": {}}
    return any(route.matches(probe)[0] == Match.FULL for route in routes)
