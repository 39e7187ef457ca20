"""Settings of one sandbox server: where its data lives, who may call it, how it misbehaves.

One dataclass carries everything `create_app` needs, so the CLI, the demo and the tests
build a server the same way and differ only in the values they pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_QUOTAS: dict[str, int] = {
    "instant_lookups": 1_000,
    "deep_searches": 200,
    "company_enrichments": 2_000,
    "contact_capacity": 5_000,
    "site_signal_slots": 100,
    "saved_companies": 10_000,
}
"""Plan limits per API key. Generous, so a demo never hits them by accident."""

QUOTA_NAMES: tuple[str, ...] = tuple(DEFAULT_QUOTAS)


@dataclass(frozen=True)
class FaultSpec:
    """Injected misbehaviour for reliability tests; all rates are probabilities per request.

    `error` answers 503 before the request has any effect; `drop` lets the request take
    effect (commit) and then closes the connection without an answer; `gateway` lets it
    take effect and then answers a proxy's 504 HTML page; `burst429` starts a run of
    `burst_length` consecutive 429 answers for the calling key.
    """

    latency_ms: float = 0.0
    error: float = 0.0
    drop: float = 0.0
    gateway: float = 0.0
    burst429: float = 0.0
    burst_length: int = 5

    @property
    def active(self) -> bool:
        return bool(self.latency_ms or self.error or self.drop or self.gateway or self.burst429)

    @classmethod
    def parse(cls, spec: str | None) -> FaultSpec:
        """Parse `latency=200ms,error=0.2,drop=0.1,gateway=0.1,burst429=0.05[,burst_length=5]`."""
        if not spec or not spec.strip():
            return cls()
        values: dict[str, float | int] = {}
        for part in spec.split(","):
            part = part.strip()
            if not part:
                continue
            name, sep, raw = part.partition("=")
            name, raw = name.strip().lower(), raw.strip().lower()
            if not sep or not raw:
                raise ValueError(f"fault {part!r} must look like name=value")
            if name == "latency":
                values["latency_ms"] = _parse_duration_ms(raw)
            elif name in ("error", "drop", "gateway", "burst429"):
                rate = float(raw)
                if not 0.0 <= rate <= 1.0:
                    raise ValueError(f"fault rate {name}={raw} must be between 0 and 1")
                values[name] = rate
            elif name == "burst_length":
                length = int(raw)
                if length < 1:
                    raise ValueError("burst_length must be at least 1")
                values["burst_length"] = length
            else:
                raise ValueError(f"unknown fault {name!r} (latency, error, drop, gateway, burst429, burst_length)")
        return cls(**values)  # type: ignore[arg-type]


def _parse_duration_ms(raw: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(ms|s)?", raw)
    if not match:
        raise ValueError(f"latency {raw!r} must look like 200ms or 0.2s")
    amount = float(match.group(1))
    return amount * 1000.0 if match.group(2) == "s" else amount


def parse_rate_limit(spec: str) -> tuple[int, float]:
    """Parse `N/S` (N requests per S seconds), e.g. `600/60`."""
    count, sep, seconds = spec.partition("/")
    try:
        limit, window = int(count), float(seconds if sep else "60")
    except ValueError as exc:
        raise ValueError(f"rate limit {spec!r} must look like 600/60") from exc
    if limit < 1 or window <= 0:
        raise ValueError("rate limit needs at least 1 request per a positive number of seconds")
    return limit, window


def default_db_path() -> Path:
    """The sandbox database lives beside the user's data, not in the working directory."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("warmline")) / "sandbox.sqlite3"


@dataclass
class SandboxSettings:
    db_path: Path | str = field(default_factory=default_db_path)
    api_keys: list[str] = field(default_factory=list)
    seed: int = 42
    companies: int = 50_000
    leads: int = 60
    job_seconds: float = 20.0
    rate_limit: tuple[int, float] = (600, 60.0)
    faults: FaultSpec = field(default_factory=FaultSpec)
    idempotency: bool = True
    quotas: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_QUOTAS))
    host: str = "127.0.0.1"
    port: int = 8765
    dialects: tuple[str, ...] = ()
    """Other readings of the spec to serve (`warmline_sandbox.dialects`); empty = standard."""
