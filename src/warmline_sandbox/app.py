"""`create_app(settings)`: one sandbox server, ready to serve or to test in-process.

Middleware, outermost first: rate limit (headers on every answer), faults, idempotency,
then FastAPI's own error handling and the routes. The outreach routes come from
`warmline_sandbox.outreach`, which exports `router`, `SCHEMA` and `seed_outreach`.
"""

from __future__ import annotations

from fastapi import FastAPI

from warmline_sandbox import auth, companies, contacts, idempotency, jobs, quotas
from warmline_sandbox.auth import generate_key, known_keys, register_key
from warmline_sandbox.clock import Clock, SystemClock
from warmline_sandbox.db import Database, init_schema, iso
from warmline_sandbox.errors import install_error_handlers
from warmline_sandbox.faults import FaultInjector, FaultMiddleware
from warmline_sandbox.idempotency import IdempotencyMiddleware
from warmline_sandbox.ratelimit import RateLimiter, RateLimitMiddleware
from warmline_sandbox.routes import companies as company_routes
from warmline_sandbox.routes import contacts as contact_routes
from warmline_sandbox.routes import health
from warmline_sandbox.settings import SandboxSettings

DESCRIPTION = (
    "A complete reference server of the Sales Intelligence Service interface, "
    "for the Warmline demo, development and tests."
)

PLATFORM_SCHEMAS = (auth.SCHEMA, quotas.SCHEMA, jobs.SCHEMA, idempotency.SCHEMA, companies.SCHEMA, contacts.SCHEMA)


def _outreach():  # noqa: ANN202 - the module, or None while it is being written
    try:
        from warmline_sandbox import outreach
    except ImportError:
        return None
    return outreach if hasattr(outreach, "router") else None


def schemas() -> tuple[str, ...]:
    outreach = _outreach()
    extra = (outreach.SCHEMA,) if outreach is not None and hasattr(outreach, "SCHEMA") else ()
    return (*PLATFORM_SCHEMAS, *extra)


def open_database(settings: SandboxSettings, clock: Clock) -> Database:
    """Open (or create and seed) the database, register the keys and the plan limits."""
    db = Database(settings.db_path)
    with db.read() as conn:
        init_schema(conn, *schemas())
    with db.transaction() as conn:
        if not settings.api_keys and not known_keys(conn):
            settings.api_keys.append(generate_key())
        for key in settings.api_keys:
            register_key(conn, key, iso(clock.now()))
        quotas.set_default_limits(conn, settings.quotas)
    return db


def create_app(settings: SandboxSettings, clock: Clock | None = None) -> FastAPI:
    clock = clock or SystemClock()
    db = open_database(settings, clock)
    app = FastAPI(title="Sales Intelligence Service (sandbox)", version="1.0", description=DESCRIPTION)
    app.state.settings = settings
    app.state.clock = clock
    app.state.db = db
    with db.read() as conn:
        app.state.api_keys = known_keys(conn)

    install_error_handlers(app)
    if settings.idempotency:
        app.add_middleware(IdempotencyMiddleware, db=db, clock=clock)
    if settings.faults.active:
        app.add_middleware(FaultMiddleware, injector=FaultInjector(settings.faults, settings.seed))
    limit, window = settings.rate_limit
    app.add_middleware(RateLimitMiddleware, limiter=RateLimiter(limit, window, clock))

    app.include_router(health.router)
    app.include_router(company_routes.router)
    app.include_router(contact_routes.router)
    outreach = _outreach()
    if outreach is not None:
        app.include_router(outreach.router)
    return app
