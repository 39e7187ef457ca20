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
