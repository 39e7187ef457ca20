"""Contract: research templates and runs, under each of the spec's two path families.

Each test forces one family with the client's `prefer_family` and checks, from the
recorded requests, that only that family's paths were used. A last test hides one family
from the sandbox to prove the client falls back to the other and remembers it.
"""

from __future__ import annotations

import uuid

import pytest

from support.contract import HiddenFamily, RecordingTransport, Sandbox, new_company
from warmline.api.errors import NotFoundError
from warmline.api.paths import Family

FAMILIES: list[Family] = ["detailed", "overview"]
PREFIX = {"detailed": "/v1/research/", "overview": "/v1/research-templates"}


def research_paths(sandbox: Sandbox) -> list[str]:
    return [p for p in sandbox.transport.paths() if p.startswith(tuple(PREFIX.values()))]


def only_family(sandbox: Sandbox, family: Family) -> bool:
    paths = research_paths(sandbox)
    return bool(paths) and all(p.startswith(PREFIX[family]) for p in paths)


@pytest.mark.parametrize("family", FAMILIES)
async def test_templates_list_and_detail(sandbox: Sandbox, family: Family) -> None:
    client = sandbox.client(prefer_family=family)
    templates = await client.list_research_templates()
    assert templates and len({t.id for t in templates}) == len(templates)
    for template in templates:
        uuid.UUID(template.id)
        assert template.name and template.fields
        assert all(f.key and f.name and f.type for f in template.fields)

    first = templates[0]
    detail = await client.get_research_template(first.id)
    assert detail.model_dump() == first.model_dump()
    assert client.families.known("research") == family
    assert only_family(sandbox, family)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("choose_by", ["id", "name"])
async def test_run_fills_company_custom_fields(sandbox: Sandbox, family: Family, choose_by: str) -> None:
    client = sandbox.client(prefer_family=family)
    template = (await client.list_research_templates())[0]
    ids = [await new_company(client, f"Research Target {n}") for n in range(2)]
    chosen = {"template_id": template.id} if choose_by == "id" else {"template_name": template.name.upper()}

    started = await client.start_research_run(ids, **chosen)
    assert (started.status, started.template_id, started.company_ids) == ("pending", template.id, ids)
    assert started.results == [] and started.created_at == sandbox.clock.now()

    sandbox.advance(11)
    done = await client.get_research_run(started.run_id)
    assert (done.run_id, done.status, done.progress) == (started.run_id, "completed", 100)
    assert [r.company_id for r in done.results] == ids
    keys = {f.key for f in template.fields}
    for result in done.results:
        assert set(result.fields) == keys
        company = await client.get_company(result.company_id)
        assert {k: company.custom_fields[k] for k in keys} == result.fields
    assert keys <= {f.key for f in await client.company_fields()}
    assert only_family(sandbox, family)
    assert client.families.known("research") == family


@pytest.mark.parametrize("family", FAMILIES)
async def test_unknown_template_or_run_is_not_found_without_falling_back(
    sandbox: Sandbox, family: Family
) -> None:
    client = sandbox.client(prefer_family=family)
    missing = str(uuid.uuid4())
    with pytest.raises(NotFoundError, match="^Research template not found$"):
        await client.get_research_template(missing)
    with pytest.raises(NotFoundError, match="^Research run not found$"):
        await client.get_research_run(missing)
    with pytest.raises(NotFoundError, match="Research template not found"):
        await client.start_research_run([1], template_name="No Such Template")
    known = await new_company(client, "Known Company")
    with pytest.raises(NotFoundError, match="^Company not found$") as unknown_company:
        await client.start_research_run([known, 987_654], template_name="ICP fit")
    assert unknown_company.value.status == 404
    assert only_family(sandbox, family), "a real not-found must not send the client to the other family"


@pytest.mark.parametrize("hidden", FAMILIES)
async def test_client_falls_back_to_the_family_the_server_has(sandbox: Sandbox, hidden: Family) -> None:
    other: Family = "overview" if hidden == "detailed" else "detailed"
    transport = RecordingTransport(HiddenFamily(sandbox.app, hidden))
    client = sandbox.client(prefer_family=hidden, transport=transport)

    templates = await client.list_research_templates()
    assert templates and client.families.known("research") == other
    assert [x.status for x in transport.exchanges] == [404, 200]

    await client.get_research_template(templates[0].id)
    assert transport.exchanges[-1].path.startswith(PREFIX[other]), "the working family is remembered"
    assert len(transport.exchanges) == 3
