"""Start-up: the cockpit paints from the cache before the sync engine exists: `warmline` hands the
app a factory, and the app builds the engine in a thread after the first frame. A lead
opened in between is revalidated once the engine is there; a factory that fails says so
and leaves the cache usable. The garbage collector, held while `warmline` starts, runs
again once the first frame is drawn."""

from __future__ import annotations

import gc
import threading
from functools import partial

from support.cockpit import RecordingSync, cockpit
from support.tui_wire_data import KESTREL
from support.waiting import until
from warmline.config import Config
from warmline.startup import hold_collection
from warmline.store import Store
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.recommendations import RecommendationsScreen
from warmline.tui.widgets.status_line import StatusLine
from warmline.wiring import make_engine

TYPED_AHEAD_ATTEMPTS = 10


async def test_the_engine_is_built_off_the_event_loop_after_the_first_frame(store: Store) -> None:
    built: list[threading.Thread] = []
    sync = RecordingSync()

    def factory() -> RecordingSync:
        built.append(threading.current_thread())
        return sync

    app = cockpit(store, sync_factory=factory)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert app.sync is sync and sync.started
        assert built and built[0] is not threading.main_thread()
        app.after_action()  # an action queued after start-up wakes the engine as usual
        assert sync.wakes == 1
    assert sync.stopped


async def test_a_lead_opened_before_the_engine_is_ready_is_revalidated_once_it_is(store: Store) -> None:
    release = threading.Event()
    sync = RecordingSync()

    def slow_factory() -> RecordingSync:
        release.wait(10)
        return sync

    app = cockpit(store, sync_factory=slow_factory)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)  # painted from the cache meanwhile
        assert sync.refreshed == [] and app._revalidate_later == [KESTREL]
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert sync.refreshed == [KESTREL]
    assert sync.stopped


async def test_a_factory_that_fails_is_reported_and_the_cache_stays_usable(store: Store) -> None:
    def refusing_factory() -> RecordingSync:
        raise ValueError("Refusing plain http:// for api.example: the API key would travel unencrypted.")

    app = cockpit(store, sync_factory=refusing_factory)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.sync is None
        [notice] = [n for n in app._notifications if str(n.message).startswith("Sync is off: Refusing plain http://")]
        assert notice.severity == "error" and notice.timeout >= 60  # stays long enough to be read
        app.poll_status()  # and the status line keeps saying so after the notice is gone
        assert "sync off" in app.screen.query_one(StatusLine).render().plain
        assert isinstance(app.screen, LeadListScreen)
        assert app.screen.lead_list.row_count > 0
        app.after_action()  # queuing still works; it is delivered when sync runs again


async def test_a_cache_of_another_service_is_shown_and_syncs_nothing(store: Store) -> None:
    """The real engine factory (`warmline.wiring.make_engine`) on a cache bound to another
    service: the cockpit shows the cache, says why sync is off, and sends nothing."""
    store.bind_service("https://api.salesintelligence.example")
    op_id = store.enqueue("add_note", {"lead_id": KESTREL, "content": "For the first service"}, KESTREL)
    other = Config(base_url="https://staging.salesintelligence.example/", api_key="k", data_dir=store.path.parent)
    app = cockpit(store, sync_factory=partial(make_engine, store, other))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.sync is None
        [notice] = [n for n in app._notifications if str(n.message).startswith("Sync is off: this cache holds")]
        assert "https://api.salesintelligence.example" in str(notice.message)
        assert "warmline cache adopt" in str(notice.message)
        app.poll_status()  # once the notice is gone, the line still names the cause
        assert "✗ sync off: this cache is another service's" in app.screen.query_one(StatusLine).render().plain
    assert store.get_op(op_id).state == "pending"
    assert store.service_address() == "https://api.salesintelligence.example"


async def test_the_collector_held_during_start_up_runs_again_after_the_first_frame(store: Store) -> None:
    hold_collection()
    try:
        app = cockpit(store)
        assert not gc.isenabled()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert gc.isenabled()
            assert gc.get_freeze_count() > 0
    finally:
        gc.enable()
        gc.unfreeze()


async def test_an_app_started_without_the_hold_leaves_the_collector_alone(store: Store) -> None:
    frozen = gc.get_freeze_count()
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert gc.isenabled() and gc.get_freeze_count() == frozen


async def test_sync_starts_when_the_first_key_puts_another_screen_over_today(store: Store) -> None:
    """A key typed ahead while the cockpit starts is handled as soon as it is ready; when it
    opens another screen (`r` here), the engine must still start. Started from Today's
    after-refresh callback, it sometimes waited on Today for good: in CI, thirty triage
    decisions then sat in the outbox for 90 s. A race, so it is run a few times."""
    for _attempt in range(TYPED_AHEAD_ATTEMPTS):
        sync = RecordingSync()
        app = cockpit(store, sync=sync)
        async with app.run_test(size=(120, 40)) as pilot:
            app.action_open("recommendations")  # the key typed ahead, handled at once
            await until(partial(getattr, sync, "started"), pilot=pilot, cap=20, what="the engine's start")
            assert isinstance(app.screen, RecommendationsScreen)
        assert sync.stopped
