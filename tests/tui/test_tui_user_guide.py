"""The user guide's keyboard reference is the one the bindings generate, so it cannot drift."""

import re
from pathlib import Path

from warmline.tui.keys import keyboard_reference

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "user-guide.md"


def test_keyboard_reference_in_the_guide_is_current() -> None:
    text = GUIDE.read_text()
    match = re.search(r"<!-- BEGIN keys[^>]*-->\n(.*?)\n<!-- END keys -->", text, re.S)
    assert match, "docs/user-guide.md lost its generated keyboard reference block"
    assert match.group(1).strip() == keyboard_reference().strip(), (
        "regenerate the block with `python -m warmline.tui.keys`"
    )


def test_every_screenshot_link_exists() -> None:
    text = GUIDE.read_text()
    links = re.findall(r"\]\((\.\./tests/[^)]+\.svg)\)", text)
    assert links
    missing = [link for link in links if not (GUIDE.parent / link).exists()]
    assert missing == []
