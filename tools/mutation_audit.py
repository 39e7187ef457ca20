"""Hand-picked mutants of the sync core, each run against its tests: do the tests notice?

Usage: `.venv/bin/python tools/mutation_audit.py [--only NAME] [--list]`

Each mutant is one small change to one module that alters behaviour (a comparison turned,
a rule dropped, a constant zeroed). The script copies the committed tree (`git archive
HEAD`) to a temporary folder once, applies each mutant there in turn, runs the tests named
for it, and counts the mutant caught when they fail. It prints one line per mutant and
`caught N of M` at the end; the exit code is 0 when every mutant was caught.

It lives beside `./dev`, not under it: `dev` is the set-up script. Not part of the test
suite (it takes minutes: a pytest run per mutant); run it after changing the core.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str  # relative to the repository
    old: str  # exactly once in the file
    new: str
    tests: tuple[str, ...]


M = Mutant
# The probes live with their kinds' specs (warmline.ops); the matching they share in ops/matching.py.
MATCHING = "src/warmline/ops/matching.py"
APPENDS = "src/warmline/ops/appends.py"
LEAD_FIELDS = "src/warmline/ops/lead_fields.py"
CHILDREN = "src/warmline/ops/children.py"
RECOMMENDATIONS = "src/warmline/ops/recommendations.py"
STARTS = "src/warmline/ops/starts.py"
EFFECTS = "src/warmline/store/effects.py"
OUTBOX = "src/warmline/store/outbox.py"
FLUSH = "src/warmline/sync/flush.py"
ENGINE = "src/warmline/sync/engine.py"
R_TESTS = ("tests/sync/test_sync_reconcile.py", "tests/sync/test_sync_reconcile_directions.py",
           "tests/sync/test_sync_clock_skew.py", "tests/sync/test_sync_gateway.py")
E_TESTS = ("tests/store/test_store_effects.py", "tests/store/test_store_effects_folds.py")

MUTANTS: list[Mutant] = [
    # --- sync/reconcile.py: the probes, both directions
    M("reconcile: records before our first send are ours", MATCHING,
      "        if since is not None and made is not None and made < since:\n            continue",
      "        if False:\n            continue", R_TESTS),
    M("reconcile: a touchpoint match ignores the contact", APPENDS,
      "t.description in texts and t.contact_id == contact", "t.description in texts", R_TESTS),
    M("reconcile: a competitor match ignores the domain", APPENDS,
      "c.name == name and (domain is None or c.domain == domain)", "c.name == name", R_TESTS),
    M("reconcile: a status change always applied", LEAD_FIELDS,
      "    if detail.lead_status != p[\"lead_status\"]:\n        return None",
      "    if False:\n        return None", R_TESTS),
    M("reconcile: a contact pin always applied", CHILDREN,
      "if contact is None or contact.is_selected != p[\"is_selected\"]:", "if contact is None:", R_TESTS),
    M("reconcile: a recommendation close always applied", RECOMMENDATIONS,
      "    if by_id(listing.recommendations, rec_id) is not None:\n        return None",
      "    if False:\n        return None", R_TESTS),
    M("reconcile: an old scan taken for the new one", STARTS,
      "(since is not None and started < since)", "False", R_TESTS),
    M("reconcile: old recommendations taken as fresh", RECOMMENDATIONS,
      "(since is None or rec.created_at.timestamp() >= since)", "True", R_TESTS),
    M("reconcile: CLOCK_SKEW zero", MATCHING, "CLOCK_SKEW = 120.0", "CLOCK_SKEW = 0.0", R_TESTS),
    M("reconcile: target score always applied", LEAD_FIELDS,
      "    if detail.target_score != p[\"target_score\"]:\n        return None",
      "    if False:\n        return None", R_TESTS),
    M("reconcile: a competitor scan always applied", CHILDREN,
      "    if scanned is None or (since is not None and scanned.timestamp() < since):\n        return None",
      "    if False:\n        return None", R_TESTS),
    # --- store/effects.py: what a delivered answer does
    M("effects: last activity not moved on delivery", EFFECTS,
      "        changes[\"last_activity_at\"] = happened", "        pass", E_TESTS),
    M("effects: un-losing keeps the closed reason", EFFECTS,
      "        if not payload[\"lost\"]:\n            changes[\"closed_reason\"] = None",
      "        if False:\n            changes[\"closed_reason\"] = None", E_TESTS),
    M("effects: the answer's deal fields ignored", EFFECTS,
      "{**deal_changes(op.payload, op.created_at), **said}", "deal_changes(op.payload, op.created_at)", E_TESTS),
    M("effects: the answer's score ignored after an activity", EFFECTS,
      "    if isinstance(answer.get(\"warming_score\"), int):\n        changes[\"warming_score\"] = answer[\"warming_score\"]\n    patch_lead_snapshot(conn, op.lead_id, changes)\n\n\ndef _log_activities(",
      "    patch_lead_snapshot(conn, op.lead_id, changes)\n\n\ndef _log_activities(", E_TESTS),
    M("effects: completing does not dismiss the same post's cards", EFFECTS,
      "        if closed and status == \"completed\":", "        if False:", E_TESTS),
    M("effects: an edited job start keeps its old job row", EFFECTS,
      "    conn.execute(\n        \"DELETE FROM jobs WHERE lead_id IS ? AND op_id IS NOT NULL AND NOT EXISTS\"",
      "    conn.execute(\n        \"SELECT 1 FROM jobs WHERE lead_id IS ? AND op_id IS NOT NULL AND NOT EXISTS\"", E_TESTS),
    M("outbox: an edit keeps the old pending rows", OUTBOX,
      "        forget_pending_rows(conn, op_id)\n        rebase(conn, op.lead_id)\n        return new_id",
      "        rebase(conn, op.lead_id)\n        return new_id", E_TESTS + ("tests/store/test_store_outbox.py",)),
    # --- sync/flush.py and sync/engine.py
    M("flush: sends on through the service's wait", FLUSH,
      " or self.client.limiter.delay() > 0\n", "\n", ("tests/sync/test_sync_flush.py", "tests/sync/test_sync_engine_guards.py")),
    M("flush: claimed-ahead ops left in flight", FLUSH,
      "        unsent = [Outcome(op, PUT_BACK) for op in pass_.ready]", "        unsent: list[Outcome] = []",
      ("tests/sync/test_sync_flush.py", "tests/sync/test_sync_engine_guards.py")),
    M("engine: the flush job sends while offline or refused", ENGINE,
      "    async def _flush_job(self) -> None:\n        if self._held_back():",
      "    async def _flush_job(self) -> None:\n        if False:",
      ("tests/sync/test_sync_engine.py", "tests/sync/test_sync_engine_guards.py")),
    M("engine: the tick polls jobs with a refused key", ENGINE,
      "            return\n        if self._held_back():\n            return\n        # Online, but nothing heard",
      "            return\n        # Online, but nothing heard",
      ("tests/sync/test_sync_engine.py", "tests/sync/test_sync_engine_guards.py")),
    M("engine: no crash recovery at start", ENGINE,
      "        recovered = await self._blocking(self.store.recover_after_crash)\n        if recovered:\n            log.info(\"%d action(s) left in flight by a previous run",
      "        recovered = 0\n        if recovered:\n            log.info(\"%d action(s) left in flight by a previous run",
      ("tests/sync/test_sync_engine.py", "tests/sync/test_sync_engine_guards.py", "tests/sync/test_sync_claims.py")),
    M("backoff: no exponent cap", "src/warmline/sync/backoff.py",
      "2.0 ** min(exponent, 30)", "2.0 ** exponent", ("tests/sync/test_sync_backoff_cap.py",)),
    # --- the edges: limits, text, exports, rate limits
    M("limits: a NaN deal value accepted", "src/warmline/api/limits.py",
      "    if not math.isfinite(value):\n        raise InputError(field, f\"{field} must be a finite number",
      "    if False:\n        raise InputError(field, f\"{field} must be a finite number",
      ("tests/api/test_api_limits.py", "tests/api/test_api_hostile_values.py")),
    M("textsafe: U+2028/U+2029 raw in JSON", "src/warmline/textsafe.py",
      r'_JSON_UNSAFE = re.compile(f"[\\x7f-\\x9f{_BIDI}\u2028\u2029\\ud800-\\udfff]")',
      r'_JSON_UNSAFE = re.compile(f"[\\x7f-\\x9f{_BIDI}\\ud800-\\udfff]")',
      ("tests/api/test_api_hostile_values.py", "tests/cli/test_csv_injection.py")),
    M("exporting: ; not escaped in ICS text", "src/warmline/exporting.py",
      r'.replace(";", "\\;")', "", ("tests/core/test_ics_dst.py", "tests/cli/test_cli_followups.py")),
    M("exporting: a failed export leaves its temp file", "src/warmline/exporting.py",
      "        Path(temp).unlink(missing_ok=True)\n        raise", "        raise",
      ("tests/core/test_ics_dst.py", "tests/cli/test_export_cli.py")),
    M("ratelimit: X-RateLimit-Reset 1e400 stored unbounded", "src/warmline/api/ratelimit.py",
      "    return now + cap_wait(stamp - now)", "    return stamp", ("tests/api/test_api_ratelimit.py",)),
    # --- the confirmation after a 2xx (issue 20)
    M("confirm: a silent answer always believed", "src/warmline/sync/confirm.py",
      "    if check.what is None or await _unshown(client, op, check):", "    if True:",
      ("tests/dialects/test_dialect_request_names.py",)),
    M("confirm: another value in the answer believed", "src/warmline/sync/confirm.py",
      "    if verdict is False and check.what is not None:", "    if False:",
      ("tests/dialects/test_dialect_request_names.py",)),
    # --- paging (issue 20): a walk that stops early must not drop rows
    M("paging: a walk that did not end counts as whole", "src/warmline/api/paging.py",
      "        if not self._ended:\n            return \"it stopped before the end\"",
      "        if False:\n            return \"it stopped before the end\"",
      ("tests/api/test_api_paging.py", "tests/sync/test_sync_refresh_failures.py")),
    M("paging: a total that does not add up is believed", "src/warmline/api/paging.py",
      "        if total is not None and total != distinct:", "        if False:",
      ("tests/api/test_api_paging.py", "tests/sync/test_sync_refresh_failures.py")),
    M("refresh: the lead list read unfiltered", "src/warmline/sync/refresh.py",
      "        for status in LEAD_STATUSES:", "        for status in (\"cold\",):",
      ("tests/dialects/test_dialect_contract.py",)),
]


def _tree() -> Path:
    """The committed tree, unpacked once."""
    target = Path(tempfile.mkdtemp(prefix="warmline-mutants-"))
    archive = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=__import__("io").BytesIO(archive.stdout)) as tar:
        tar.extractall(target, filter="data")
    return target


def _run(tree: Path, mutant: Mutant) -> tuple[bool, str]:
    """Apply `mutant`, run its tests, put the file back; (caught, why)."""
    path = tree / mutant.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutant.old) != 1:
        return False, f"NOT APPLIED: the original text occurs {original.count(mutant.old)} times"
    path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
    try:
        tests = [t for t in mutant.tests if (tree / t).exists()]
        env = {**os.environ, "PYTHONPATH": f"{tree / 'src'}{os.pathsep}{tree / 'tests'}"}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:randomly", *tests],
            cwd=tree, env=env, capture_output=True, text=True, timeout=900,
        )
    finally:
        path.write_text(original, encoding="utf-8")
    last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    return done.returncode != 0, last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run the mutants whose name contains this text")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.only or args.only in m.name]
    if args.list:
        for mutant in chosen:
            print(f"{mutant.name}  ({mutant.path})")
        return 0
    tree = _tree()
    caught = 0
    for mutant in chosen:
        started = time.perf_counter()
        killed, why = _run(tree, mutant)
        caught += killed
        print(f"{'caught  ' if killed else 'SURVIVED'} {mutant.name}  [{time.perf_counter() - started:.0f} s] {why}",
              flush=True)
    print(f"caught {caught} of {len(chosen)}")
    return 0 if caught == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
