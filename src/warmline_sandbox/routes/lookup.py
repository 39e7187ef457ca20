"""`POST /v1/companies/lookup`: instant lookup over the company database."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field, model_validator

from warmline_sandbox import limits as L
from warmline_sandbox.deps import Ctx
from warmline_sandbox.lookup import instant_lookup
from warmline_sandbox.search import Criteria

router = APIRouter(tags=["lookup"])

Keyword = Annotated[str, Field(min_length=1, max_length=L.LOOKUP_KEYWORD_MAX_CHARS)]
Keywords = Annotated[list[Keyword], Field(max_length=L.LOOKUP_KEYWORDS_MAX)]


class LookupBody(BaseModel):
    query: Annotated[str, Field(min_length=L.QUERY_MIN_CHARS, max_length=L.LOOKUP_QUERY_MAX_CHARS)] | None = None
    broaden_search: bool = False
    industries: Keywords = []
    countries: Keywords = []
    regions: Keywords = []
    save: bool = False
    limit: Annotated[int, Field(ge=1, le=L.LOOKUP_LIMIT_MAX)] = 25

    @model_validator(mode="after")
    def _something_to_look_for(self) -> LookupBody:
        if not (self.query or self.industries or self.countries or self.regions):
            raise ValueError("give at least one of query, industries, countries, regions")
        return self


@router.post("/v1/companies/lookup", summary="Instant company lookup (consumes 1 instant lookup)")
def lookup(body: LookupBody, ctx: Ctx) -> dict[str, Any]:
    criteria = Criteria(
        query=body.query,
        broaden=body.broaden_search,
        industries=body.industries,
        countries=body.countries,
        regions=body.regions,
        limit=body.limit,
    )
    with ctx.db.transaction() as conn:
        return instant_lookup(conn, criteria, save=body.save, api_key=ctx.api_key, now=ctx.clock.now())
