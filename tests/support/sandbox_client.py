"""In-process clients of a sandbox app, for the sandbox tests."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

TEST_KEY = "test-key"
BASE_URL = "http://sandbox"


def make_client(app: FastAPI, key: str | None = TEST_KEY) -> httpx.AsyncClient:
    """An in-process client of `app`, authenticated with `key` (none if None)."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL, headers=headers)
