"""Start-up without the garbage collector, from `warmline` to the cockpit's first frame.

Everything allocated before the first frame (modules, classes, styles, the screen) lives
as long as the process, yet Python's collector walks it again and again while it grows:
about 100 collections and 12 ms of the rep's wait. `warmline` holds collection while it
starts; the cockpit releases it once its first frame is drawn, freezing what exists then
so that later collections (one per keystroke's garbage) skip it too. Reference counting
frees everything else as usual meanwhile; only cycles wait those few hundred ms.
"""

from __future__ import annotations

import gc


def hold_collection() -> None:
    """Pause cyclic garbage collection until `release_collection`."""
    gc.disable()


def release_collection() -> None:
    """If collection is held: move everything alive now out of the collector's reach, and
    collect as usual again. Otherwise (an app run by tests, say) leave it alone."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
