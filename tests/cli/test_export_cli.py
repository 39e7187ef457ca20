"""`warmline export`: CSV and JSON of leads, companies and contacts from the cache (no network)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from support.cli_sandbox import configure, open_store, run, serve
from warmline.exporting import COMPANY_COLUMNS, CONTACT_COLUMNS, LEAD_COLUMNS, export


def lead(lead_id: int, name: str, status: str, score: int, **extra: object) -> dict:
    return {
        "id": lead_id, "company_id": 100 + lead_id, "company_name": name, "lead_status": status,
        "warming_score": score, "target_score": 60, "activity_count": 2, "recommendation_count": 1,
        "monitoring_active": True, "last_activity_at": "2026-11-20T10:00:00.000Z", **extra,
    }


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    configure(monkeypatch, path)
    serve(monkeypatch, None)  # export never needs the service
    with open_store(path) as store:
        store.upsert_leads([
            lead(1, "Nordlys Freight", "warm", 72),
            lead(2, "=HYPERLINK(\"http://evil\")", "cold", 10),
            lead(3, "Bavaria Dental", "warm", 35),
        ])
        store.upsert_lead_detail({
            **lead(1, "Nordlys Freight", "warm", 72), "deal_value": 24000, "deal_currency": "EUR",
            "won_at": None, "closed_at": None, "closed_reason": None,
        })
        store.upsert_field_schemas("companies", [
            {"key": "icp_fit_score", "name": "ICP fit score", "type": "number"},
            {"key": "name", "name": "Name as researched", "type": "text"},
        ])
        store.upsert_companies([
            {"id": 101, "name": "Nordlys Freight", "domain": "nordlys.example", "industry": "Logistics",
             "country": "Norway", "tags": ["nordics", "saas"], "ai_tag": None,
             "custom_fields": {"icp_fit_score": 81, "buying_signals": ["hiring", "new CTO"], "name": "Nordlys AS"}},
            {"id": 102, "name": "@risk Dental", "domain": "risk.example", "tags": [],
             "custom_fields": {"uses_crm": True}},
        ])
        store.upsert_contacts([
            {"id": 7, "company_id": 101, "first_name": "Dana", "last_name": "Berg", "title": "VP Ops",
             "role": "decision-maker", "email": "dana@nordlys.example", "tags": ["met at fair"]},
        ])
    return path


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_leads_csv_has_a_stable_header_and_one_row_per_lead(data_dir: Path) -> None:
    result = run("export", "leads", "--format", "csv")
    assert result.exit_code == 0, result.output
    table = rows(result.stdout)
    assert table[0] == list(LEAD_COLUMNS)
    assert [r[0] for r in table[1:]] == ["1", "3", "2"]  # highest warming score first
    first = dict(zip(table[0], table[1], strict=True))
    assert (first["company_name"], first["lead_status"], first["warming_score"]) == ("Nordlys Freight", "warm", "72")
    assert (first["deal_value"], first["deal_currency"], first["monitoring_active"]) == ("24000.0", "EUR", "true")
    assert first["ready"] == "true"  # 72 >= target 60


def test_text_a_spreadsheet_would_run_is_defused(data_dir: Path) -> None:
    leads = rows(run("export", "leads").stdout)
    assert leads[-1][2] == "'=HYPERLINK(\"http://evil\")"
    companies = rows(run("export", "companies").stdout)
    assert companies[1][1] == "'@risk Dental"
    # JSON keeps the text exactly as it is
    names = [c["name"] for c in json.loads(run("export", "companies", "--format", "json").stdout)]
    assert names == ["@risk Dental", "Nordlys Freight"]


def test_leads_by_status(data_dir: Path) -> None:
    warm = json.loads(run("export", "leads", "--format", "json", "--status", "warm").stdout)
    assert [item["id"] for item in warm] == [1, 3]
    assert list(warm[0]) == list(LEAD_COLUMNS)
    assert run("export", "companies", "--status", "warm").exit_code == 2


def test_companies_csv_adds_custom_field_columns_schema_first(data_dir: Path) -> None:
    table = rows(run("export", "companies").stdout)
    custom = ["icp_fit_score", "custom:name", "buying_signals", "uses_crm"]
    assert table[0] == [*COMPANY_COLUMNS, *custom]
    nordlys = dict(zip(table[0], table[2], strict=True))
    assert nordlys["tags"] == "nordics; saas"
    assert (nordlys["icp_fit_score"], nordlys["buying_signals"], nordlys["custom:name"]) == ("81", "hiring; new CTO", "Nordlys AS")
    assert nordlys["uses_crm"] == ""
    assert dict(zip(table[0], table[1], strict=True))["uses_crm"] == "true"


def test_companies_and_contacts_json(data_dir: Path) -> None:
    companies = json.loads(run("export", "companies", "--format", "json").stdout)
    assert list(companies[1]) == [*COMPANY_COLUMNS, "custom_fields"]
    assert companies[1]["tags"] == ["nordics", "saas"]
    assert companies[1]["custom_fields"]["buying_signals"] == ["hiring", "new CTO"]
    contacts = json.loads(run("export", "contacts", "--format", "json").stdout)
    assert [(c["id"], c["first_name"], c["role"]) for c in contacts] == [(7, "Dana", "decision-maker")]
    assert contacts[0]["company_name"] == "Nordlys Freight"  # beside its id: a sheet needs the name
    assert list(contacts[0]) == [*CONTACT_COLUMNS, "custom_fields"]


def test_out_file_is_written_whole(data_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "warm.csv"
    target.write_text("old content")
    result = run("export", "leads", "--status", "warm", "--out", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert "Exported 2 leads" in result.stderr
    assert [r[0] for r in rows(target.read_text())] == ["id", "1", "3"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".warm.csv")] == []
    missing = run("export", "leads", "--out", str(tmp_path / "no-such-dir" / "x.csv"))
    assert missing.exit_code == 1


def test_empty_cache_exports_a_header_or_an_empty_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(monkeypatch, tmp_path)
    assert rows(run("export", "contacts").stdout) == [list(CONTACT_COLUMNS)]
    assert json.loads(run("export", "leads", "--format", "json").stdout) == []


def test_export_pages_through_long_lists(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.upsert_companies({"id": i, "name": f"Company {i:05d}"} for i in range(1, 1203))
        out = io.StringIO()
        assert export(store, "companies", "json", out) == 1202
    items = json.loads(out.getvalue())
    assert [c["id"] for c in items] == list(range(1, 1203))


def test_bad_kind_or_format(data_dir: Path) -> None:
    assert run("export", "deals").exit_code == 2
    assert run("export", "leads", "--format", "xlsx").exit_code == 2
