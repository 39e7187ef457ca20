"""Sandbox apps whose database is seeded once per test process and copied after that.

Seeding is deterministic: the database depends only on the settings (seed, sizes, keys,
quotas) and the clock's time when it is created. So the first app made with given
settings and time is seeded as `warmline_sandbox.app.create_app` always does, a copy of its
fresh database is kept, and every later app with the same settings and time starts from
a copy of that (2,000 companies take half a second to seed and milliseconds to copy).
An app on the system clock, without keys, or on a database that exists is made as usual.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import shutil
import tempfile
from pathlib import Path

from fastapi import FastAPI

from warmline_sandbox import app as sandbox_app
from warmline_sandbox.clock import Clock, SystemClock
from warmline_sandbox.settings import SandboxSettings

_templates: dict[str, Path] = {}
_folder: Path | None = None


def create_app(settings: SandboxSettings, clock: Clock | None = None) -> FastAPI:
    """`warmline_sandbox.app.create_app(settings, clock)`, seeded from a copy when it can be."""
    key = _template_key(settings, clock)
    target = Path(settings.db_path)
    if key is not None and not target.exists():
        template = _templates.get(key)
        if template is None:
            _templates[key] = _make_template(settings, clock, key)
        else:
            shutil.copyfile(template, target)
    return sandbox_app.create_app(settings, clock=clock)


def _template_key(settings: SandboxSettings, clock: Clock | None) -> str | None:
    if clock is None or isinstance(clock, SystemClock) or not settings.api_keys:
        return None
    fields = dataclasses.asdict(dataclasses.replace(settings, db_path="")) | {"now": clock.now().isoformat()}
    return hashlib.sha256(repr(sorted(fields.items())).encode()).hexdigest()[:16]


def _make_template(settings: SandboxSettings, clock: Clock | None, key: str) -> Path:
    """Seed a database as `create_app` does, and keep a copy of it as it was seeded."""
    global _folder
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix="warmline-seeded-"))
        atexit.register(shutil.rmtree, _folder, True)
    template = _folder / f"{key}.sqlite3"
    seeded = dataclasses.replace(settings, db_path=template, api_keys=list(settings.api_keys))
    sandbox_app.open_database(seeded, clock or SystemClock()).close()
    shutil.copyfile(template, settings.db_path)
    return template
