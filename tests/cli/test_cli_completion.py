"""Shell completion (issue 14): `warmline completion SHELL` prints click's script for bash,
zsh or fish, and a call from that script (`_WARMLINE_COMPLETE` set, no arguments) reaches
the command line instead of opening the cockpit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from warmline.cli import main
from warmline.dispatch import COMPLETE_VAR
from warmline.exit_codes import EXIT_BAD_INPUT

CAP = 60  # seconds: a cap on a hung process (the cockpit waiting for keys), not a timing


def _console_script() -> Path:
    """The `warmline` script installed beside this interpreter (./dev's editable install):
    click names the completion function and the variable after the program it runs as."""
    script = Path(sys.executable).parent / "warmline"
    if not script.exists():
        pytest.skip(
            f"no `warmline` console script beside {sys.executable} (install the project first)"
        )
    return script


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A config the cockpit would refuse at once (exit 2): were the call sent to the
    cockpit, it would fail fast and visibly instead of waiting for keys."""
    config = tmp_path / "config.toml"
    config.write_text("[service\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "_WARMLINE_COMPLETE"}
    return {**env, "WARMLINE_CONFIG": str(config), "WARMLINE_DATA_DIR": str(tmp_path), **extra}


def test_the_completion_variable_prints_the_bash_script_and_does_not_open_the_cockpit(
    tmp_path: Path,
) -> None:
    out = subprocess.run(
        [str(_console_script())],
        env=_env(tmp_path, _WARMLINE_COMPLETE="bash_source"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CAP,
    )
    assert (out.returncode, out.stderr) == (0, "")
    assert "complete -o nosort -F _warmline_completion warmline" in out.stdout
    assert "_WARMLINE_COMPLETE=bash_complete" in out.stdout
    assert "\x1b[" not in out.stdout  # nothing of a terminal UI


def test_a_completion_request_gets_the_matching_commands(tmp_path: Path) -> None:
    """What the bash script asks when the user types `warmline comp<TAB>`."""
    env = _env(
        tmp_path, _WARMLINE_COMPLETE="bash_complete", COMP_WORDS="warmline comp", COMP_CWORD="1"
    )
    out = subprocess.run(
        [str(_console_script())],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CAP,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["plain,companies", "plain,completion"]


def test_the_completion_command_prints_what_the_variable_prints(tmp_path: Path) -> None:
    script = str(_console_script())
    by_command = subprocess.run(
        [script, "completion", "bash"],
        env=_env(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CAP,
    )
    by_variable = subprocess.run(
        [script],
        env=_env(tmp_path, _WARMLINE_COMPLETE="bash_source"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CAP,
    )
    assert by_command.returncode == 0, by_command.stderr
    assert by_command.stdout == by_variable.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_loads_the_script_and_registers_warmline(tmp_path: Path) -> None:
    script = tmp_path / "warmline.bash"
    script.write_text(CliRunner().invoke(main, ["completion", "bash"]).output, encoding="utf-8")
    out = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", f"source {script} && complete -p warmline"],
        capture_output=True,
        text=True,
        timeout=CAP,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "complete -o nosort -F _warmline_completion warmline"


def test_fish_script() -> None:
    result = CliRunner().invoke(main, ["completion", "fish"])
    assert result.exit_code == 0, result.output
    assert "complete --no-files --command warmline --arguments" in result.output
    assert "_WARMLINE_COMPLETE=fish_complete" in result.output
    assert "function _warmline_completion" in result.output


def test_zsh_script_can_live_in_fpath_as_an_autoload_function() -> None:
    result = CliRunner().invoke(main, ["completion", "zsh"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("#compdef warmline\n")
    assert "_WARMLINE_COMPLETE=zsh_complete" in result.output


def test_an_unknown_shell_is_a_usage_error_naming_the_shells() -> None:
    result = CliRunner().invoke(main, ["completion", "tcsh"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert "Invalid value for 'SHELL': 'tcsh' is not one of 'bash', 'zsh', 'fish'." in result.output


def test_no_shell_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["completion"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert "Missing argument 'SHELL'" in result.output


def test_the_variable_is_the_one_click_names_for_warmline() -> None:
    """Written once (`warmline.dispatch`), for the launcher and the command alike."""
    assert COMPLETE_VAR == "_WARMLINE_COMPLETE"
