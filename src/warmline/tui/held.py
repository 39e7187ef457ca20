"""One-key decisions held for their undo window (`Cockpit.decide`), as the app keeps them."""

from warmline.named_tuple import NamedTuple

QUIT_GRACE_SECONDS = 3.0
"""How long quitting waits for held decisions to reach the service (then they go at the
next sync: they are committed to the cache, never lost)."""


class Held(NamedTuple):
    """A one-key decision inside its undo window: its ops are not sent before `until`."""

    op_ids: tuple[str, ...]
    label: str
    until: float  # the store's monotonic clock (`Store.monotonic`): a wall-clock jump moves it not
