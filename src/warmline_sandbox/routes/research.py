"""Research templates and runs, under both path families the spec names.

Detailed: `/v1/research/templates[/:id]`, `POST /v1/research/run`, `GET /v1/research/runs/:run_id`.
Overview: `/v1/research-templates[/:id]`, `POST /v1/research-templates/:id/run`,
`GET /v1/research-templates/runs/:runId`. Each pair is two thin routes over one function.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from warmline_sandbox import limits as L
from warmline_sandbox import research
from warmline_sandbox.deps import Ctx
from warmline_sandbox.errors import not_found
from warmline_sandbox.params import Id

router = APIRouter(tags=["research"])

CompanyIds = Annotated[list[Id], Field(min_length=1, max_length=L.RESEARCH_MAX_COMPANIES)]
TextId = Annotated[str, Path(min_length=1, max_length=L.TEMPLATE_ID_MAX_CHARS)]


class RunBody(BaseModel):
    template_id: Annotated[str, Field(min_length=1, max_length=L.TEMPLATE_ID_MAX_CHARS)] | None = None
    template_name: Annotated[str, Field(min_length=1, max_length=L.NAME_MAX_CHARS)] | None = None
    company_ids: CompanyIds


class TemplateRunBody(BaseModel):
    company_ids: CompanyIds


@router.get("/v1/research/templates", summary="List research templates", operation_id="list_research_templates")
@router.get("/v1/research-templates", summary="List research templates (overview path)",
            operation_id="list_research_templates_overview")
def list_templates(ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as conn:
        return {"success": True, "data": research.list_templates(conn)}


@router.get("/v1/research/templates/{template_id}", summary="Get a research template",
            operation_id="get_research_template")
@router.get("/v1/research-templates/{template_id}", summary="Get a research template (overview path)",
            operation_id="get_research_template_overview")
def get_template(template_id: TextId, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as conn:
        template = research.get_template(conn, template_id)
    if template is None:
        raise not_found(research.TEMPLATE_NOT_FOUND)
    return {"success": True, "data": template}


def _start(ctx: Ctx, template_id: str | None, template_name: str | None, company_ids: list[int]) -> dict[str, Any]:
    research.validate_template_choice(template_id, template_name)
    with ctx.db.transaction() as conn:
        template = research.find_template(conn, template_id, template_name)
        return research.start_run(
            conn, template, company_ids, api_key=ctx.api_key, clock=ctx.clock,
            seconds=ctx.settings.job_seconds, seed=ctx.settings.seed,
        )


@router.post("/v1/research/run", status_code=201, summary="Start a research run (1 enrichment per company)")
def start_run(body: RunBody, ctx: Ctx) -> dict[str, Any]:
    return _start(ctx, body.template_id, body.template_name, body.company_ids)


@router.post("/v1/research-templates/{template_id}/run", status_code=201,
             summary="Start a research run of this template (overview path)")
def start_template_run(template_id: TextId, body: TemplateRunBody, ctx: Ctx) -> dict[str, Any]:
    return _start(ctx, template_id, None, body.company_ids)


@router.get("/v1/research/runs/{run_id}", summary="Poll a research run", operation_id="get_research_run")
@router.get("/v1/research-templates/runs/{run_id}", summary="Poll a research run (overview path)",
            operation_id="get_research_run_overview")
def poll_run(run_id: TextId, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return research.observe_run(conn, run_id, ctx.clock)
