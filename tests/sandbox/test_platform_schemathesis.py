"""Property-based requests from /openapi.json (schemathesis, in-process): no answer is a 5xx.

Bounded to a few examples per operation so the whole run stays well under a minute.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings

from warmline_sandbox.app import create_app
from warmline_sandbox.settings import SandboxSettings

KEY = "fuzz-key"


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    app = create_app(SandboxSettings(
        db_path=tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3", api_keys=[KEY], companies=300, leads=3,
        job_seconds=0.0, rate_limit=(1_000_000, 60.0),
    ))
    yield app
    app.state.db.close()


@pytest.fixture(scope="module")
def api_schema(fuzzed_app: FastAPI):  # a schemathesis schema
    return schemathesis.openapi.from_asgi("/openapi.json", fuzzed_app)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_operation_answers_5xx(case) -> None:
    response = case.call(headers={"Authorization": f"Bearer {KEY}"})
    assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text}"
