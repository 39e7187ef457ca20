"""The core layers must stay free of Textual and Rich (see docs/architecture.md)."""

import json
import subprocess
import sys

CORE_MODULES = ["warmline.api", "warmline.store", "warmline.sync", "warmline.actions", "warmline.config"]


def test_core_does_not_import_textual_or_rich() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_cockpit_does_not_import_sandbox() -> None:
    code = (
        "import importlib, pkgutil, sys, warmline\n"
        "for m in pkgutil.walk_packages(warmline.__path__, 'warmline.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('warmline_sandbox' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# What plain `warmline` imports before the lead list's first frame (docs/architecture.md,
# "Start-up"): none of these; they load after it or on first use.
LATER = [
    "click", "warmline.cli", "warmline.commands", "httpx", "pydantic", "apscheduler", "warmline.api",
    "warmline.sync", "warmline.actions", "warmline.tui.screens.dialogs", "warmline.tui.screens.lead_detail",
    "warmline.tui.commands", "textual.widgets._text_area",
]


def test_the_cockpit_start_up_path_leaves_the_heavy_modules_for_later() -> None:
    code = (
        "import json, sys\n"
        "import warmline.launch, warmline.config, warmline.store, warmline.tui.app\n"
        "import warmline.tui.screens.lead_list\n"
        f"print(json.dumps(sorted(m for m in {LATER!r} if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
