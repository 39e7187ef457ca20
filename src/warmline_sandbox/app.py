"""`create_app(settings)`: one sandbox server, ready to serve or to test in-process.

Middleware, outermost first: dialects (only when some are asked for: they translate
requests and answers, `warmline_sandbox.dialect_middleware`), rate limit (headers on
every answer), unexpected errors (a 500 envelope, so it gets those headers too), faults,
idempotency, the dialects' own answers, then FastAPI's own error handling and the
routes. The outreach part comes from `warmline_sandbox.outreach`, which exports
`router`, `SCHEMA` (its tables) and `seed_outreach` (called by `seed.py`).
"""

from __future__ import annotations

import logging
import time

from fastapi import FastAPI

from warmline_sandbox import (
    auth,
    companies,
    contact_search,
    contacts,
    directory,
    idempotency,
    jobs,
    outreach,
    quotas,
    research,
    seed,
)
from warmline_sandbox.auth import generate_key, known_keys, register_key
from warmline_sandbox.clock import Clock, SystemClock
from warmline_sandbox.db import Database, init_schema, iso
from warmline_sandbox.dialect_asgi import PresetAnswerMiddleware
from warmline_sandbox.dialect_middleware import DialectMiddleware
from warmline_sandbox.dialects import check_dialects
from warmline_sandbox.errors import UnexpectedErrorMiddleware, install_error_handlers
from warmline_sandbox.faults import FaultInjector, FaultMiddleware
from warmline_sandbox.idempotency import IdempotencyMiddleware
from warmline_sandbox.ratelimit import RateLimiter, RateLimitMiddleware
from warmline_sandbox.routes import companies as company_routes
from warmline_sandbox.routes import contact_search as contact_search_routes
from warmline_sandbox.routes import contacts as contact_routes
from warmline_sandbox.routes import deep_search as deep_search_routes
from warmline_sandbox.routes import health, lookup
from warmline_sandbox.routes import research as research_routes
from warmline_sandbox.settings import SandboxSettings

log = logging.getLogger("warmline_sandbox")

DESCRIPTION = (
    "A complete reference server of the Sales Intelligence Service interface, "
    "for the Warmline demo, development and tests. Authenticate with `Authorization: Bearer <key>`."
)

PLATFORM_SCHEMAS = (
    seed.SCHEMA,
    auth.SCHEMA,
    quotas.SCHEMA,
    jobs.SCHEMA,
    idempotency.SCHEMA,
    directory.SCHEMA,
    companies.SCHEMA,
    contacts.SCHEMA,
    contact_search.SCHEMA,
    research.SCHEMA,
)

# Literal paths first: `/v1/companies/lookup` must not be taken for `/v1/companies/{id}`.
PLATFORM_ROUTERS = (
    health.router,
    lookup.router,
    deep_search_routes.router,
    contact_search_routes.router,
    company_routes.router,
    contact_routes.router,
    research_routes.router,
)


SCHEMAS = (*PLATFORM_SCHEMAS, outreach.SCHEMA)


def open_database(settings: SandboxSettings, clock: Clock) -> Database:
    """Open the database; on first use create and seed it. Register keys and plan limits.

    `settings.api_keys` always ends up holding at least the key to announce.
    """
    db = Database(settings.db_path)
    with db.read() as conn:
        init_schema(conn, *SCHEMAS)
        outreach.add_missing_columns(conn)
    started = time.perf_counter()
    with db.transaction() as conn:
        if seed.seed_database(conn, settings, clock.now()):
            log.info("seeded %d companies in %.2f s", settings.companies, time.perf_counter() - started)
        if not settings.api_keys:
            # No key asked for: keep using the database's first key, or make one.
            first = conn.execute("SELECT key FROM api_keys ORDER BY created_at, key LIMIT 1").fetchone()
            settings.api_keys.append(first["key"] if first else generate_key())
        for key in settings.api_keys:
            register_key(conn, key, iso(clock.now()))
        quotas.set_default_limits(conn, settings.quotas)
    return db


def create_app(settings: SandboxSettings, clock: Clock | None = None) -> FastAPI:
    dialects = check_dialects(settings.dialects)  # before anything is opened
    clock = clock or SystemClock()
    db = open_database(settings, clock)
    app = FastAPI(title="Sales Intelligence Service (sandbox)", version="1.0", description=DESCRIPTION)
    app.state.settings = settings
    app.state.clock = clock
    app.state.db = db
    with db.read() as conn:
        app.state.api_keys = known_keys(conn)

    install_error_handlers(app)
    if dialects:
        app.add_middleware(PresetAnswerMiddleware)
    if settings.idempotency:
        app.add_middleware(IdempotencyMiddleware, db=db, clock=clock)
    if settings.faults.active:
        app.add_middleware(FaultMiddleware, injector=FaultInjector(settings.faults, settings.seed))
    app.add_middleware(UnexpectedErrorMiddleware)
    limit, window = settings.rate_limit
    app.add_middleware(RateLimitMiddleware, limiter=RateLimiter(limit, window, clock))
    if dialects:
        app.add_middleware(DialectMiddleware, dialects=dialects, router=app.router, db=db)

    for router in PLATFORM_ROUTERS:
        app.include_router(router)
    app.include_router(outreach.router)
    return app
