"""What a research run extracted, per company, as the cache now holds it.

A completed run's values are merged into each company's custom fields (`JobsStore.record_job`),
where the rep may since have changed them: each value is shown as the cache holds it, and as
the run found it only when the company (or that field) is not cached. The cockpit's
"Research results" screen and `warmline research run --wait` read this model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warmline.store.custom_fields import FieldSchema, field_schema, optional_id, schema_of
from warmline.store.rows import Job
from warmline.store.values import JsonMap, JsonValue

if TYPE_CHECKING:
    from warmline.store import Store


@dataclass(frozen=True)
class CompanyResult:
    """One company's values, in the order the run gave its fields. `company_name` is None
    when the company is not cached; `company_id` when the service did not say which."""

    company_id: int | None
    company_name: str | None
    values: dict[str, JsonValue]


@dataclass(frozen=True)
class RunResults:
    """A research run (None when the cache no longer holds it), its template's name when
    cached, the schema that labels and orders the values (the template's data points,
    then the company field schema's other fields) and the results."""

    job: Job | None
    template_name: str | None
    schema: tuple[FieldSchema, ...]
    companies: tuple[CompanyResult, ...]


def results_of(store: Store, job: Job) -> tuple[CompanyResult, ...]:
    """Each company's values from a run's answer, read back from the cache."""
    found = []
    with store.read():
        for result in (job.raw or {}).get("results") or []:
            if not isinstance(result, Mapping):
                continue
            company_id = optional_id(result.get("company_id"))
            company = store.get_company(company_id) if company_id is not None else None
            extracted = result.get("fields")
            run_values: JsonMap = extracted if isinstance(extracted, Mapping) else {}
            cached = company.custom_fields if company is not None else {}
            values = {str(key): cached.get(key, value) for key, value in run_values.items()}
            found.append(CompanyResult(company_id, company.name if company is not None else None, values))
    return tuple(found)


def run_results(store: Store, job_key: int) -> RunResults:
    """The results of the research run `job_key`."""
    with store.read():
        job = store.get_job(job_key)
        template_id = (job.params or {}).get("template_id") if job is not None else None
        template = store.find_template(str(template_id or "")) if job is not None else None
        own = schema_of(template.fields) if template is not None else ()
        schema = own + tuple(f for f in field_schema(store, "companies") if f.key not in {o.key for o in own})
        companies = results_of(store, job) if job is not None else ()
    return RunResults(job, template.name if template is not None else None, schema, companies)
