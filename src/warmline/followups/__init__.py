"""Follow-ups: the promises a rep writes into activities and notes ("wants pricing by
Friday"), kept locally. Core code: no Textual, no Rich, standard library only.

`parse.py` reads the follow-up a text names (`parse_follow_up`, `FollowUpGuess`).
"""

from warmline.followups.parse import FollowUpGuess, parse_follow_up

__all__ = ["FollowUpGuess", "parse_follow_up"]
