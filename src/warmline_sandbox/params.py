"""Parameter types shared by the routes, bounded so no number can overflow SQLite."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import Field

from warmline_sandbox.limits import ID_MAX

IdPath = Annotated[int, Path(ge=1, le=ID_MAX, description="integer identifier")]
"""An integer id in the path; out-of-range values are a 400, never a 500."""

Id = Annotated[int, Field(ge=1, le=ID_MAX)]
"""An integer id inside a request body."""
