"""Path families of research: `overview-only` and `detailed-only`.

The spec names two path families for research and does not say which is authoritative;
the standard sandbox serves both. A service serving only one answers the other's paths
as an unknown route, which is what these dialects do. `detailed-only` also reads the
spec's unshown run status path as `GET /v1/research/run/:run_id`, the singular of the
start path, so the standard `/v1/research/runs/:run_id` is an unknown route there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DETAILED = "/v1/research"
OVERVIEW = "/v1/research-templates"
STANDARD_RUNS = "/v1/research/runs"
_SINGULAR_RUN = re.compile(r"/v1/research/run/(?P<run_id>[^/]+)\Z")


@dataclass(frozen=True)
class FamilyRoute:
    """Where a request goes: the path the standard app serves it under, or nowhere."""

    path: str
    blocked: bool = False


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + "/")


def family_route(dialects: frozenset[str], path: str) -> FamilyRoute:
    """The standard path of a request, or `blocked` when its family is not served."""
    if "overview-only" in dialects and _under(path, DETAILED):
        return FamilyRoute(path, blocked=True)
    if "detailed-only" in dialects:
        if _under(path, OVERVIEW) or _under(path, STANDARD_RUNS):
            return FamilyRoute(path, blocked=True)
        singular = _SINGULAR_RUN.match(path)
        if singular:
            return FamilyRoute(f"{STANDARD_RUNS}/{singular.group('run_id')}")
    return FamilyRoute(path)
