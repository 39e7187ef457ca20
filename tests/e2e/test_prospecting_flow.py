"""End to end over a real loopback port: the prospecting day of a rep, from the command line.

deep search -> add two found companies to outreach as cold -> contact search on one ->
add two of the people found -> research run over both -> their custom fields are visible
in the cache (`companies show`, `export`). The sandbox serves on 127.0.0.1 in a thread
with jobs that take a second; the commands run in-process but talk HTTP to that port.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from warmline.cli import main
from warmline_sandbox.server import RunningSandbox, start_in_thread
from warmline_sandbox.settings import SandboxSettings

pytestmark = pytest.mark.e2e


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[RunningSandbox]:
    settings = SandboxSettings(
        db_path=tmp_path / "sandbox.sqlite3", api_keys=["e2e-prospecting"], seed=3, companies=400,
        leads=3, job_seconds=1.0, host="127.0.0.1", port=0,
    )
    running = start_in_thread(settings)
    yield running
    running.stop()


@pytest.fixture
def rep_shell(sandbox: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("WARMLINE_BASE_URL", sandbox.url)
    monkeypatch.setenv("WARMLINE_API_KEY", sandbox.api_key)
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(data))
    monkeypatch.setenv("WARMLINE_CONFIG", str(data / "absent.toml"))
    # Poll the running jobs every 0.2-0.4 s rather than the spec's 5-10 s, to keep the test short.
    monkeypatch.setattr("warmline.sync.jobs.POLL_MIN", 0.2)
    monkeypatch.setattr("warmline.sync.jobs.POLL_MAX", 0.4)
    return data


def warmline(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, f"warmline {' '.join(args)} -> {result.exit_code}\n{result.output}"
    return result


def test_deep_search_to_outreach_contacts_and_research(rep_shell: Path) -> None:
    search = json.loads(warmline("deep-search", "logistics SaaS in the Nordics", "--max", "3", "--wait", "--json").stdout)
    assert search["job"]["status"] == "completed"
    found = search["results"]
    assert len(found) == 3 and all(c["ai_tag"] for c in found)
    first, second = found[0], found[1]

    added = json.loads(warmline("outreach", "add", str(first["id"]), str(second["id"]), "--as", "cold", "--json").stdout)
    assert added["state"] == "sent" and added["added"] == 2
    leads = json.loads(warmline("leads", "--status", "cold", "--json").stdout)
    assert {first["id"], second["id"]} <= {lead["company_id"] for lead in leads}

    people = json.loads(warmline("contacts", "search", first["name"], "--wait", "--json").stdout)
    assert people["job"]["status"] == "completed" and len(people["results"]) >= 2
    job_id = people["job"]["remote_id"]
    picked = [str(p["id"]) for p in people["results"][:2]]
    result = json.loads(warmline("contacts", "add", job_id, *picked, "--json").stdout)
    assert (result["added"], result["skipped"]) == (2, 0)
    contacts = json.loads(warmline("export", "contacts", "--format", "json").stdout)
    assert len(contacts) == 2 and {c["company_id"] for c in contacts} == {first["id"]}

    run = json.loads(warmline("research", "run", "ICP fit", str(first["id"]), str(second["id"]), "--wait", "--json").stdout)
    assert run["job"]["status"] == "completed"
    assert {r["company_id"] for r in run["results"]} == {first["id"], second["id"]}

    for company in (first, second):
        shown = json.loads(warmline("companies", "show", str(company["id"]), "--json").stdout)
        assert isinstance(shown["custom_fields"].get("icp_fit_score"), int), shown
        assert "icp_fit_score" in warmline("companies", "show", company["name"]).stdout
    table = list(csv.DictReader(io.StringIO(warmline("export", "companies").stdout)))
    scored = {int(row["id"]): row["icp_fit_score"] for row in table if row["icp_fit_score"]}
    assert set(scored) == {first["id"], second["id"]}
    jobs = json.loads(warmline("jobs", "--json").stdout)
    assert sorted(j["kind"] for j in jobs) == ["contact_search", "deep_search", "research_run"]
    assert {j["status"] for j in jobs} == {"completed"}
