"""Request bodies shared by the company and contact routes."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from warmline_sandbox import limits as L
from warmline_sandbox.records import merge_tags

Tag = Annotated[str, Field(min_length=1, max_length=L.TAG_MAX_CHARS)]


class RecordBody(BaseModel):
    """Fields common to company and contact bodies; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")

    tags: Annotated[list[Tag], Field(max_length=L.TAGS_MAX)] | None = None
    custom_fields: dict[Annotated[str, Field(min_length=1, max_length=L.CUSTOM_FIELD_KEY_MAX_CHARS)], Any] | None = None

    @field_validator("tags")
    @classmethod
    def _unique_tags(cls, tags: list[str] | None) -> list[str] | None:
        return None if tags is None else merge_tags([], tags)

    def changes(self) -> dict[str, Any]:
        """Only the fields the caller actually sent."""
        return self.model_dump(exclude_unset=True)
