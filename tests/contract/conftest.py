"""Fixtures of the contract tests: a small seeded sandbox per test, and clients of it.

Seeding is done once per session into a template database; each test works on its own
copy, so tests are independent and the suite stays fast.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from support.contract import API_KEY, OTHER_KEY, RecordingTransport, Sandbox
from warmline.api import ServiceClient
from warmline_sandbox.app import create_app
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.settings import SandboxSettings

CONTRACT_DIR = Path(__file__).parent
COVERAGE_TEST = "test_contract_coverage.py::test_every_client_method_is_exercised"

TEMPLATE_SETTINGS = SandboxSettings(
    db_path="unset",
    api_keys=[API_KEY, OTHER_KEY],
    seed=7,
    companies=300,
    leads=4,
    job_seconds=10.0,
)


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("contract-template") / "sandbox.sqlite3"
    settings = dataclasses.replace(TEMPLATE_SETTINGS, db_path=path, api_keys=list(TEMPLATE_SETTINGS.api_keys))
    app = create_app(settings, clock=ManualClock())
    app.state.db.close()
    return path


@pytest.fixture
async def sandbox_factory(
    seeded_db: Path, tmp_path: Path
) -> AsyncIterator[Callable[..., Sandbox]]:
    """`sandbox_factory(**settings_overrides)`: a fresh copy of the seeded sandbox."""
    made: list[Sandbox] = []

    def make(**overrides: Any) -> Sandbox:
        db_path = tmp_path / f"sandbox-{len(made)}.sqlite3"
        shutil.copyfile(seeded_db, db_path)
        settings = dataclasses.replace(
            TEMPLATE_SETTINGS, db_path=db_path, api_keys=list(TEMPLATE_SETTINGS.api_keys), **overrides
        )
        clock = ManualClock()
        app = create_app(settings, clock=clock)
        made.append(Sandbox(app, clock, settings, RecordingTransport(app)))
        return made[-1]

    yield make
    for sandbox in made:
        await sandbox.close()


@pytest.fixture
def sandbox(sandbox_factory: Callable[..., Sandbox]) -> Sandbox:
    return sandbox_factory()


@pytest.fixture
def client(sandbox: Sandbox) -> ServiceClient:
    return sandbox.client()


# ---------------------------------------------------------------- the coverage test runs last


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the coverage test after every other contract test, whatever the order asked, and
    in the same process: under pytest-xdist (`--dist loadgroup`) every contract test is in
    one group, which one worker runs in this order."""
    for item in items:
        if Path(str(item.path)).parent == CONTRACT_DIR:
            item.add_marker(pytest.mark.xdist_group("contract"))
    last = [item for item in items if item.nodeid.endswith(COVERAGE_TEST)]
    if last:
        items[:] = [item for item in items if item not in last] + last


_PARTIAL: list[str] = []
"""Why the contract suite is not running whole this session (then coverage cannot be judged)."""


def pytest_deselected(items: list[pytest.Item]) -> None:
    if any(Path(str(item.path)).parent == CONTRACT_DIR for item in items):
        _PARTIAL.append("some contract tests were deselected")


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    collected = {Path(str(item.path)).name for item in session.items}
    missing = sorted(
        path.name for path in CONTRACT_DIR.glob("test_contract_*.py") if path.name not in collected
    )
    if missing and any(item.nodeid.endswith(COVERAGE_TEST) for item in session.items):
        _PARTIAL.append("not collected: " + ", ".join(missing))


@pytest.fixture
def whole_suite() -> None:
    """Skip a test that judges the whole contract suite when only part of it runs."""
    if _PARTIAL:
        pytest.skip("the contract suite is not running whole: " + "; ".join(_PARTIAL))
