import os
import subprocess
import sys

from click.testing import CliRunner

from warmline import __version__
from warmline.cli import main


def test_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_python_dash_m() -> None:
    out = subprocess.run([sys.executable, "-m", "warmline", "--version"], capture_output=True, text=True)
    assert out.returncode == 0
    assert __version__ in out.stdout


def test_plain_warmline_with_a_malformed_config_says_so_and_exits_2(tmp_path) -> None:
    """Plain `warmline` skips the command line (warmline.launch) but reports like it."""
    config = tmp_path / "config.toml"
    config.write_text("[service\n")
    env = {**os.environ, "WARMLINE_CONFIG": str(config), "WARMLINE_DATA_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "warmline"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 2
    assert out.stderr.startswith(f"Error: {config}: not valid TOML")
