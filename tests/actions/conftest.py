"""A cache holding one cold and one warm lead with everything the actions touch
(support.actions_data)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from support.actions_data import COLD, WARM, lead_detail
from support.actions_data import fingerprint as whole_cache
from warmline.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(tmp_path / "cache.sqlite3")
    opened.upsert_lead_detail(lead_detail(COLD, "cold"))
    opened.upsert_lead_detail(lead_detail(WARM, "warm"))
    opened.upsert_templates([{"id": "5b6c-icp", "name": "ICP Fit", "fields": []}])
    yield opened
    opened.close()


@pytest.fixture
def fingerprint() -> Callable[[Store], dict[str, list[dict[str, Any]]]]:
    return whole_cache
