"""The cockpit's own keys, which work on every screen (`WarmlineApp.BINDINGS`).

A module of their own so that the keyboard reference (`warmline.tui.keys`), which the app
uses to check the rep's keymap, can list them without importing the app.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    Binding("question_mark,f1", "help", "Help", id="app.help"),
    Binding("r", "open('recommendations')", "Recs", id="app.recommendations"),
    Binding("J", "open('jobs')", "Jobs", id="app.jobs"),
    Binding("O", "open('outbox')", "Outbox", id="app.outbox"),
    Binding("L", "open('leads')", "Leads", show=False, id="app.leads"),
    Binding("H", "open('today')", "Today", show=False, id="app.today"),
    Binding("W", "open('agenda')", "Agenda (the week ahead)", show=False, id="app.agenda"),
    Binding("V", "open('review')", "Week in review (the week behind)", show=False, id="app.review"),
    Binding("P", "open('prospecting')", "Prospecting", id="app.prospecting"),
    Binding("C", "open('companies')", "Companies", show=False, id="app.companies"),
    Binding("K", "open('contacts')", "Contacts", show=False, id="app.contacts"),
    Binding("I", "open('lookup')", "Company lookup", show=False, id="app.lookup"),
    Binding("F", "open('deep_search')", "Company deep search", show=False, id="app.deep_search"),
    Binding("T", "open('research')", "Research templates", show=False, id="app.research"),
    Binding("X", "open('export')", "Export leads, companies or contacts", show=False, id="app.export"),
    Binding("ctrl+k,slash", "open('search')", "Search everything", show=False, id="app.search"),
    Binding("Y", "sync_now", "Sync now", show=False, id="app.sync_now"),
    Binding("u", "undo", "Undo the last decision", show=False, id="app.undo"),
    Binding("q", "quit", "Quit", id="app.quit"),
]
