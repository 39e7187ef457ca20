"""The wheel as a user gets it (issue 14): built from this tree, installed into a fresh
venv, and run from there, offline.

The wheel is built with hatchling's PEP 517 hook (hatchling is in the `test` extra, so
no download) and installed with `--no-deps --no-index`. The venv gets the dependencies
from this test run's environment through a `.pth` file naming a directory of links to
its site-packages, minus the `demo` extra's packages and minus warmline itself: so what
is imported as `warmline` is the wheel's copy, and the venv is a core install (no
FastAPI, uvicorn, Faker), as `pip install warmline` would make it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from warmline import __version__
from warmline.exit_codes import EXIT_ERROR

pytestmark = pytest.mark.e2e

CAP = 120  # seconds: a cap on a hung build or child, not a timing
ROOT = Path(__file__).resolve().parents[2]
DEMO_PACKAGES = ("fastapi", "uvicorn", "faker")
NOT_LINKED = re.compile(r"^(warmline|_?_?editable|fastapi|uvicorn|faker)|\.pth$", re.IGNORECASE)
"""Entries of this environment's site-packages the fresh venv must not see: warmline
itself (its editable install), the demo extra, and .pth files."""


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def warmline(self) -> Path:
        return self.venv / "bin" / "warmline"


def _run(
    args: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None, input: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        env=env,
        cwd=cwd,
        input=input,
        capture_output=True,
        text=True,
        timeout=CAP,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    pytest.importorskip(
        "hatchling",
        reason="hatchling (the `test` extra) builds the wheel offline; ./dev installs it",
    )
    tmp = tmp_path_factory.mktemp("wheel")
    build = _run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom hatchling.build import build_wheel\nprint(build_wheel(sys.argv[1]))",
            str(tmp / "dist"),
        ],
        cwd=ROOT,
    )
    assert build.returncode == 0, build.stderr
    wheel = tmp / "dist" / build.stdout.strip().splitlines()[-1]
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    pip = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--isolated",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-compile",
            str(wheel),
        ]
    )
    assert pip.returncode == 0, pip.stderr
    deps = tmp / "deps"
    deps.mkdir()
    ours = Path(sysconfig.get_path("purelib"))
    for entry in ours.iterdir():
        if not NOT_LINKED.search(entry.name) and entry.name != "__pycache__":
            (deps / entry.name).symlink_to(entry)
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
        ).stdout.strip()
    )
    (site / "zz_test_dependencies.pth").write_text(f"{deps}\n", encoding="utf-8")
    yield Installed(wheel, venv)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "_WARMLINE_COMPLETE", "VIRTUAL_ENV")
    }
    return {
        **env,
        "PYTHONNOUSERSITE": "1",
        "WARMLINE_DATA_DIR": str(tmp_path / "data"),
        "WARMLINE_CONFIG": str(tmp_path / "config.toml"),
        **extra,
    }


def test_the_venv_runs_the_wheels_copy_without_the_demo_packages(
    installed: Installed, tmp_path: Path
) -> None:
    code = (
        "import importlib.util, warmline, warmline_sandbox\n"
        "print(warmline.__file__)\nprint(warmline_sandbox.__file__)\n"
        f"print([m for m in {DEMO_PACKAGES!r} if importlib.util.find_spec(m)])\n"
    )
    out = _run([str(installed.python), "-c", code], env=_env(tmp_path), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    package, sandbox_package, demo_found = out.stdout.splitlines()
    assert Path(package).is_relative_to(installed.venv) and Path(sandbox_package).is_relative_to(
        installed.venv
    )
    assert demo_found == "[]"


def test_help_and_version_from_the_wheel(installed: Installed, tmp_path: Path) -> None:
    out = _run([str(installed.warmline), "--help"], env=_env(tmp_path), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Usage: warmline [OPTIONS] [COMMAND] [ARGS]...")
    assert re.search(r"^  completion +Print the shell completion script", out.stdout, re.MULTILINE)
    version = _run([str(installed.warmline), "--version"], env=_env(tmp_path), cwd=tmp_path)
    assert version.stdout.strip() == f"warmline, version {__version__}"


def test_completion_from_the_wheel(installed: Installed, tmp_path: Path) -> None:
    by_command = _run(
        [str(installed.warmline), "completion", "bash"], env=_env(tmp_path), cwd=tmp_path
    )
    assert by_command.returncode == 0, by_command.stderr
    assert "complete -o nosort -F _warmline_completion warmline" in by_command.stdout
    by_variable = _run(
        [str(installed.warmline)],
        env=_env(tmp_path, _WARMLINE_COMPLETE="bash_source"),
        cwd=tmp_path,
    )
    assert (by_variable.returncode, by_variable.stdout) == (0, by_command.stdout)


@pytest.mark.parametrize("command", ["demo", "sandbox"])
def test_the_core_install_says_how_to_add_the_demo(
    installed: Installed, command: str, tmp_path: Path
) -> None:
    out = _run([str(installed.warmline), command], env=_env(tmp_path), cwd=tmp_path)
    assert out.returncode == EXIT_ERROR
    assert out.stderr == (
        f"Error: warmline {command} needs the reference server's packages (fastapi, uvicorn,"
        f" faker missing); install them with: {installed.python} -m pip install 'warmline[demo]'\n"
    )


def _metadata(wheel: Path) -> tuple[dict[str, list[str]], list[str]]:
    """The wheel's METADATA headers (each with all its values) and its file names."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        text = archive.read(f"warmline-{__version__}.dist-info/METADATA").decode("utf-8")
    fields: dict[str, list[str]] = {}
    for line in text.split("\n\n", 1)[0].splitlines():
        key, _, value = line.partition(": ")
        fields.setdefault(key, []).append(value)
    return fields, names


def test_the_wheels_metadata(installed: Installed) -> None:
    fields, names = _metadata(installed.wheel)

    def get(key: str) -> list[str]:
        return fields.get(key, [])

    assert get("License-Expression") == ["MIT"] and get("License-File") == ["LICENSE"]
    assert f"warmline-{__version__}.dist-info/licenses/LICENSE" in names
    assert "warmline/themes/warmline-dark.toml" in names and "warmline_sandbox/app.py" in names
    assert not [n for n in names if "__pycache__" in n]
    classifiers = get("Classifier")
    assert "Environment :: Console" in classifiers
    assert not [
        c for c in classifiers if c.startswith("License ::")
    ]  # the expression says it (PEP 639)
    requires = get("Requires-Dist")
    core = [r for r in requires if "extra ==" not in r]
    demo = sorted(r.split(";")[0].split(">")[0] for r in requires if "extra == 'demo'" in r)
    assert demo == sorted(DEMO_PACKAGES)
    assert not [r for r in core if r.split("<")[0].split(">")[0] in DEMO_PACKAGES]
    assert not [r for r in requires if r.startswith("respx")]


def test_the_config_key_cache_logs_and_queue_commands_from_the_wheel(installed: Installed, tmp_path: Path) -> None:
    """Issue #14's commands as a user of the wheel meets them (no service: a closed port)."""
    env = _env(tmp_path, WARMLINE_LOG_DIR=str(tmp_path / "logs"), WARMLINE_NO_DETACH="1")
    env.pop("WARMLINE_API_KEY", None)

    def warmline(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
        out = _run([str(installed.warmline), *args], env=env, cwd=tmp_path, input=input)
        assert "Traceback" not in out.stderr, out.stderr
        return out

    assert warmline("config", "path").stdout.strip() == str(tmp_path / "config.toml")
    assert warmline("config", "init").returncode == 0
    assert (tmp_path / "config.toml").stat().st_mode & 0o777 == 0o600
    assert warmline("config", "set", "service.base_url", "http://127.0.0.1:9").returncode == 0
    assert warmline("config", "set", "ui.nonsense", "1").returncode == 2
    assert warmline("key", "set", "--file", input="wheel-secret-key\n").returncode == 0
    shown = warmline("config", "show")
    assert shown.returncode == 0 and "wheel-secret-key" not in shown.stdout + shown.stderr
    assert warmline("cache", "path").stdout.strip() == str(tmp_path / "data" / "cache.sqlite3")
    assert warmline("logs", "--path").stdout.strip() == str(tmp_path / "logs" / "warmline.log")
    assert warmline("completion", "fish").returncode == 0
    # Offline with an empty cache: the lead is unknown, said in one line.
    unknown = warmline("note", "3", "called them", "--json")
    assert unknown.returncode == 2 and unknown.stderr.count("Error:") == 1
