"""The first-start seed: deterministic from the seed, once per database."""

from __future__ import annotations

from pathlib import Path

from warmline_sandbox import jobs, seed
from warmline_sandbox.app import create_app
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.demo_meta import demo_deep_search_job
from warmline_sandbox.settings import SandboxSettings

SNAPSHOT = (
    "SELECT (SELECT group_concat(name || '|' || domain || '|' || industry || '|' || region || '|' || size, ';') "
    "FROM (SELECT * FROM directory ORDER BY id LIMIT 50)), "
    "(SELECT group_concat(name || '|' || custom_fields || '|' || tags, ';') FROM companies), "
    "(SELECT group_concat(first_name || last_name || email, ';') FROM contacts), "
    "(SELECT COUNT(*) FROM directory), (SELECT COUNT(*) FROM directory_fts WHERE directory_fts MATCH 'software')"
)


def snapshot(tmp_path: Path, name: str, seed: int) -> tuple:
    settings = SandboxSettings(db_path=tmp_path / f"{name}.db", api_keys=["k"], seed=seed, companies=500, leads=4)
    app = create_app(settings, clock=ManualClock())
    with app.state.db.read() as conn:
        row = tuple(conn.execute(SNAPSHOT).fetchone())
    app.state.db.close()
    return row


def test_the_same_seed_gives_the_same_data(tmp_path: Path) -> None:
    first, again, other = snapshot(tmp_path, "a", 11), snapshot(tmp_path, "b", 11), snapshot(tmp_path, "c", 12)
    assert first == again
    assert first[0] != other[0] and first[1] != other[1]
    assert first[3] == 500 and first[4] > 0, "every company is in the search index"


def test_seeding_happens_once_per_database(tmp_path: Path) -> None:
    first = snapshot(tmp_path, "same", 11)
    assert snapshot(tmp_path, "same", 99) == first


def test_seeded_organization_looks_alive(tmp_path: Path) -> None:
    settings = SandboxSettings(db_path=tmp_path / "alive.db", api_keys=["k"], seed=5, companies=800, leads=6)
    app = create_app(settings, clock=ManualClock())
    with app.state.db.read() as conn:
        saved = conn.execute("SELECT COUNT(*) FROM companies").fetchone()[0]
        with_research = conn.execute("SELECT COUNT(*) FROM companies WHERE custom_fields != '{}'").fetchone()[0]
        industries = conn.execute("SELECT COUNT(DISTINCT industry) FROM directory").fetchone()[0]
        templates = conn.execute("SELECT COUNT(*) FROM research_templates").fetchone()[0]
        unique_domains = conn.execute("SELECT COUNT(DISTINCT domain) FROM directory").fetchone()[0]
        demo_search = jobs.get_job(conn, demo_deep_search_job(conn) or 0, kind="deep_search")
    app.state.db.close()
    # The leads' companies, 15 more, and those of the deep search that finished before the start.
    assert demo_search is not None and demo_search["status"] == "completed"
    found = demo_search["result"]["company_ids"]
    assert 0 < len(found) <= seed.DEMO_DEEP_SEARCH_RESULTS
    assert saved == 6 + 15 + len(found) and with_research > 0 and templates == 3
    assert industries == 16 and unique_domains == 800
