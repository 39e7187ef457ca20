"""The week in review: what the rep did in a week (or any range of days), from the cache.

`period` names the days (weeks start on the rep's first work day), `build` computes the
`model.Review` from the cache and the follow-ups file alone, and the renderers write it
for where it goes: `markdown` (a chat message), `html` (one self-contained file with
inline SVG charts, for a manager's mail), `table` (CSV) and `data` (JSON). The cockpit's
review screen (`warmline.tui.screens.review`) draws the same value. Never imports Textual
or Rich.
"""
