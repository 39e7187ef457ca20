"""`GET /v1/health`: the one operation that needs no key (but checks one that is sent)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from warmline_sandbox.auth import optional_key
from warmline_sandbox.db import iso

VERSION = "1.0"

router = APIRouter(tags=["health"])


@router.get("/v1/health", summary="Check API status and validate the API key")
def health(request: Request, api_key: str | None = Depends(optional_key)) -> dict[str, Any]:
    return {
        "success": True,
        "status": "ok",
        "version": VERSION,
        "time": iso(request.app.state.clock.now()),
        "authenticated": api_key is not None,
    }
