"""`warmline service check [--json] [--write LEAD]`: what the configured service answers like.

A rep (or whoever sets Warmline up) points it at a real service; the spec leaves enough
"not shown" that it may read some of it otherwise than our sandbox. This command asks
the service read-only questions (`warmline.service_check`) and prints, for a person, what
it found and a "what looks wrong" list; `--json` prints the same facts as one object.
`--write LEAD` also changes a few values of that lead and puts each back, to see which
request field names the service honours (asked first on a terminal, `--yes` without one).

Exit codes: 0 the service is usable; 1 it is not (a lead list or a lead's detail could
not be read) or a value changed by `--write` may not be back; 2 bad input (no terminal
to ask and no `--yes`, a lead not on the service); 3 the key is refused or missing;
4 offline. A fatal failure is one line on stderr, never a traceback.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.common import ID, CommandError, echo_json, open_config, plain
from warmline.commands.direct import api_failure
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR, EXIT_OK
from warmline.textsafe import redact_url
from warmline.wiring import make_client

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.service_check import (
        DefaultLeadsFacts,
        ErrorReading,
        HealthFacts,
        LeadFacts,
        ListFacts,
        RateLimitFacts,
        ResearchFacts,
        ServiceReport,
        WriteFacts,
    )


@click.group("service", epilog=EXIT_CODES_HELP)
def service_group() -> None:
    """The configured service: `check` what it answers like."""


@service_group.command(
    "check", epilog=EXIT_CODES_HELP, short_help="Probe the service: paging, fields, research paths, errors."
)
@click.option("--json", "as_json", is_flag=True, help="Print the facts as one JSON object.")
@click.option(
    "--write", "write_lead", type=ID, metavar="LEAD", default=None,
    help="Also change a few values of this lead (by id) and put each back, to see which request fields the service honours.",
)
@click.option("--yes", "-y", is_flag=True, help="With --write: do not ask (needed without a terminal).")
def service_check(as_json: bool, write_lead: int | None, yes: bool) -> None:
    """Ask the configured service read-only questions and say what it answers like.

    Health (its clock, the key), the first pages of each list (the paging style, whether
    the lead list without a filter hides a status), one lead's detail (which fields
    Warmline uses it left out), which research path family answers, the rate-limit
    headers, how a missing lead, an unknown route and a refused filter read; then what
    looks wrong. With --write LEAD, also one round trip per request shape on that lead
    (target score, a monitoring source, a competitor pin, the deal currency, the status),
    each read back and put back.
    """
    config = open_config()
    if write_lead is not None and not yes:
        confirm_write(write_lead)
    report = run_check(config, write_lead)
    if as_json:
        echo_json(report_json(report))
    else:
        for line in describe(report):
            click.echo(plain(line))
    code = exit_code(report)
    if code != EXIT_OK:
        sys.exit(code)


def confirm_write(lead_id: int) -> None:
    """`--write` changes the service: ask on a terminal, refuse without one (as
    `warmline cache reset` does)."""
    if not sys.stdin.isatty():
        raise CommandError(
            f"lead {lead_id} not changed: no terminal to ask; pass --yes to run the write check", EXIT_BAD_INPUT
        )
    question = (
        f"Change lead {lead_id}'s target score, a monitoring source, a competitor pin, its deal currency "
        "and its status on the service, and put each back?"
    )
    if not click.confirm(question, err=True):
        raise CommandError("Nothing changed.", EXIT_ERROR)


def run_check(config: Config, write_lead: int | None) -> ServiceReport:
    """The check against the configured service; a fatal failure as the command's error."""
    from warmline.api.errors import ApiError  # deferred: command line
    from warmline.service_check import NoSuchLead, check_service  # deferred: command line

    client = make_client(config)  # request fields named as [service.fields] says, as the outbox sends them

    async def go() -> ServiceReport:
        async with client:
            return await check_service(client, write_lead)

    try:
        return asyncio.run(go())
    except NoSuchLead as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None
    except ApiError as exc:
        raise api_failure(exc, config.key_source) from None


def exit_code(report: ServiceReport) -> int:
    """0 when Warmline can work against the service and `--write` left nothing changed."""
    return EXIT_OK if report.usable and not report.restore_failed else EXIT_ERROR


# --- JSON -------------------------------------------------------------------------------------


def report_json(report: ServiceReport) -> dict[str, Any]:
    """The report's facts under stable keys (the dataclasses' fields), with `usable`."""
    data = dataclasses.asdict(report)
    data["usable"] = report.usable
    data["restore_failed"] = report.restore_failed
    return data


# --- text -------------------------------------------------------------------------------------


def describe(report: ServiceReport) -> list[str]:
    """The report for a person, one line each (printed through `plain`)."""
    return [
        f"Service check of {redact_url(report.base_url)}",
        *health_lines(report.health),
        *list_lines(report.lists, report.default_leads),
        *lead_lines(report.lead),
        research_line(report.research),
        rate_limit_line(report.rate_limit),
        *error_lines(report.errors),
        *write_lines(report.write),
        *problem_lines(report.problems),
    ]


def health_lines(health: HealthFacts) -> list[str]:
    key = "key accepted" if health.key_accepted else "key not accepted"
    if health.authenticated is None:
        key += " (health does not say; the lists took it)"
    lines = [f"Health: reachable, status {health.status or '(none)'}, version {health.version or '(none)'}; {key}"]
    if health.skew_seconds is None:
        lines.append("  Clock: the service gave no time (no Date header, no health time)")
    else:
        side = "ahead of" if health.skew_seconds > 0 else "behind"
        lines.append(
            f"  Clock: service time {health.server_time or '(not in health)'}; "
            f"{abs(health.skew_seconds):.1f} s {side} ours (±{health.skew_uncertainty or 0:.1f} s)"
        )
    return lines


def _style(facts: ListFacts) -> str:
    from warmline.service_check import STYLE_WORDS  # deferred: command line

    return STYLE_WORDS.get(facts.style or "", facts.style or "unknown")


def list_line(facts: ListFacts) -> str:
    if facts.error:
        return f"  {facts.name:<11} could not be read: {facts.error}"
    extent = "the whole list" if facts.whole else f"the first {facts.pages} pages; not read to its end"
    records = "1 record" if facts.records == 1 else f"{facts.records} records"
    line = f"  {facts.name:<11} paging {_style(facts)}: {records} ({extent})"
    if facts.statuses:
        line += f"; statuses {', '.join(facts.statuses)}"
    return line + (f"; {facts.problem}" if facts.problem else "")


def list_lines(lists: dict[str, ListFacts], default: DefaultLeadsFacts | None) -> list[str]:
    lines = ["Lists (first pages):", *(list_line(facts) for facts in lists.values())]
    if default is not None:
        hides = f"hides {' and '.join(default.hides)} leads" if default.hides else "hides no status"
        lines.append(f"  The lead list without a status filter {hides}.")
    return lines


def lead_lines(lead: LeadFacts) -> list[str]:
    if lead.error:
        return [f"Lead detail: could not be read: {lead.error}"]
    name = f" ({lead.company_name})" if lead.company_name else ""
    came = len(lead.given)
    lines = [f"Lead {lead.lead_id}{name}: {came} of {came + len(lead.missing)} fields Warmline uses came"]
    if lead.missing:
        lines.append(f"  not given by the service: {', '.join(lead.missing)}")
    if lead.untold:
        lines.append(f"  empty on this lead, their fields not told: {', '.join(lead.untold)}")
    return lines


def research_line(research: ResearchFacts) -> str:
    families = ", ".join(f"{family} {said}" for family, said in research.families.items())
    if research.error:
        return f"Research: templates could not be read ({research.error}); {families}"
    return (f"Research: templates from the {research.known_family or 'unknown'} family "
            f"({research.templates} templates); asked on their own: {families}")


def rate_limit_line(limits: RateLimitFacts) -> str:
    if not limits.headers:
        return "Rate limit: no X-RateLimit headers"
    return (f"Rate limit: headers present (limit {limits.limit}, {limits.remaining} left, "
            f"resets {limits.reset_at or 'at an unknown time'})")


def error_line(name: str, reading: ErrorReading) -> str:
    if reading.answered_2xx:
        return f"  {name}: answered 2xx ({reading.request})"
    return f"  {name}: {reading.kind}, HTTP {reading.status}: {reading.message} ({reading.request})"


def error_lines(errors: dict[str, ErrorReading]) -> list[str]:
    names = {"missing_lead": "missing lead", "unknown_route": "unknown route", "bad_filter": "bad filter"}
    return ["Errors as Warmline reads them:", *(error_line(names.get(key, key), value) for key, value in errors.items())]


def write_lines(write: WriteFacts | None) -> list[str]:
    if write is None:
        return []
    lines = [f"Write check on lead {write.lead_id} (each value changed, read back, put back):"]
    for step in write.steps:
        sent = f" (sent as {step.sent_as})" if step.sent_as != step.field else ""
        lines.append(f"  {step.name}{sent}: {step.outcome}: {step.detail}")
        if step.restore_problem:
            lines.append(f"    NOT PUT BACK: {step.restore_problem}")
    return lines


def problem_lines(problems: list[str]) -> list[str]:
    if not problems:
        return ["What looks wrong: nothing."]
    return ["What looks wrong:", *(f"  - {problem}" for problem in problems)]


COMMANDS = [service_group]
