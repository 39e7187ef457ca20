"""`warmline[demo]` (issue 14): the reference server's packages are an optional extra, and
`warmline demo` / `warmline sandbox` without them say in one line what to install.

A core install is simulated in a child interpreter by `sys.modules[name] = None`, which
makes Python treat the module as absent (its import raises, its spec is None)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from warmline.commands import sandbox
from warmline.exit_codes import EXIT_ERROR

CAP = 60  # seconds: a cap on a hung child, not a timing

ROOT = Path(__file__).resolve().parents[2]


def _run_without(
    modules: list[str], argv: list[str], tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        f"for name in {modules!r}: sys.modules[name] = None\n"
        f"sys.argv = ['warmline', *{argv!r}]\n"
        "from warmline.launch import main\n"
        "main()\n"
    )
    env = {
        **os.environ,
        "WARMLINE_DATA_DIR": str(tmp_path / "data"),
        "WARMLINE_CONFIG": str(tmp_path / "none.toml"),
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CAP,
    )


@pytest.mark.parametrize("command", ["demo", "sandbox"])
def test_without_the_extra_the_command_says_what_to_install_in_one_line(
    command: str, tmp_path: Path
) -> None:
    out = _run_without(
        ["fastapi", "uvicorn", "faker"],
        [command, "--data-dir" if command == "demo" else "--db", str(tmp_path / "kept")],
        tmp_path,
    )
    assert out.returncode == EXIT_ERROR
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr  # no traceback
    assert lines[0].startswith(
        f"Error: warmline {command} needs the reference server's packages"
        " (fastapi, uvicorn, faker missing); install them with: "
    )
    assert lines[0].endswith(
        f"{sys.executable} -m pip install -e '{ROOT}[demo]'"
    )  # this clone is editable
    assert not (tmp_path / "kept").exists()  # stopped before making anything


def test_one_missing_package_is_named(tmp_path: Path) -> None:
    out = _run_without(["uvicorn"], ["demo"], tmp_path)
    assert out.returncode == EXIT_ERROR
    assert "(uvicorn missing)" in out.stderr and "Traceback" not in out.stderr


def test_help_of_both_commands_works_without_the_extra(tmp_path: Path) -> None:
    for command in ("demo", "sandbox"):
        out = _run_without(["fastapi", "uvicorn", "faker"], [command, "--help"], tmp_path)
        assert out.returncode == 0, out.stderr
        assert "warmline[demo]" in out.stdout


def test_with_the_extra_nothing_is_missing() -> None:
    assert sandbox.missing_demo_modules() == []


def test_a_module_that_fails_to_be_found_counts_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faker", None)
    assert sandbox.missing_demo_modules() == ["faker"]


@pytest.mark.parametrize(
    ("prefix", "hint"),
    [
        ("home/ann/.local/share/pipx/venvs/warmline", "pipx install --force 'warmline[demo]'"),
        ("home/ann/.local/pipx/venvs/warmline", "pipx install --force 'warmline[demo]'"),
        ("home/ann/.local/share/uv/tools/warmline", "uv tool install --reinstall 'warmline[demo]'"),
    ],
)
def test_tool_installers_get_their_own_command(
    prefix: str, hint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "prefix", str(tmp_path / prefix))
    assert sandbox.demo_install_hint() == hint


def test_a_plain_install_is_told_to_use_its_own_pip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    monkeypatch.setattr(sandbox, "_editable_source", lambda: None)
    assert sandbox.demo_install_hint() == f"{sys.executable} -m pip install 'warmline[demo]'"


def test_an_editable_install_reinstalls_its_clone() -> None:
    """This test run's own install: `./dev` installs the clone in place."""
    assert sandbox.demo_install_hint() == f"{sys.executable} -m pip install -e '{ROOT}[demo]'"
