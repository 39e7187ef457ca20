"""The prospecting screens: feeding the pipeline without leaving the terminal.

A rep finds companies (instant lookup, deep search), the people in them (contact
search), researches them (research templates, per-company deep research), browses the
saved companies and contacts, and moves companies into outreach. Every operation that
spends plan quota says what it costs before it is sent. None of this is needed to paint
the lead list: the app imports these screens when the rep first opens one.
"""
