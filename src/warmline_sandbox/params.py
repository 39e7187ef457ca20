"""Parameter types shared by the routes, bounded so no number can overflow SQLite."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import Field

from warmline_sandbox.db import MAX_INT

IdPath = Annotated[int, Path(ge=1, le=MAX_INT, description="integer identifier")]
"""An integer id in the path; out-of-range values are a 400, never a 500."""

Id = Annotated[int, Field(ge=1, le=MAX_INT)]
"""An integer id inside a request body."""
