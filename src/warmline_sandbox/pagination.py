"""Paging of list operations: `page` (1-based) and `per_page` (1-200), as docs/wire.md says."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Query

from warmline_sandbox import limits as L


@dataclass(frozen=True)
class Page:
    page: int
    per_page: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page


def page_params(
    page: int = Query(1, ge=1, le=L.PAGE_MAX, description="1-based page number"),
    per_page: int = Query(50, ge=1, le=L.PER_PAGE_MAX, description="items per page"),
) -> Page:
    return Page(page=page, per_page=per_page)


def paginated(items: list[Any], page: Page, total: int) -> dict[str, Any]:
    return {
        "success": True,
        "data": items,
        "pagination": {
            "page": page.page,
            "per_page": page.per_page,
            "total": total,
            "total_pages": (total + page.per_page - 1) // page.per_page,
        },
    }


PageQuery = Annotated[Page, Depends(page_params)]
"""Route parameter type for the `page` and `per_page` query parameters."""
