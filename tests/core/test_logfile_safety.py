"""The log file is ours alone, and a log that cannot be written is one line (issue 21,
items 8 and 10).

Before: the log was written through a symbolic link at its name (to any file the user can
write), a log directory that was a symlink to a 0777 directory was used as it was, and a
write that failed (a full disk) printed `--- Logging error ---` and a traceback for every
record: 1,638 lines for one `--debug sync`.
"""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from warmline import logfile

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX links and modes")


@pytest.fixture
def restored() -> Iterator[None]:
    """The `warmline` loggers as they were before the test's `configure`."""
    logger = logging.getLogger(logfile.LOGGER)
    saved = (list(logger.handlers), logger.level)
    yield
    for owner in (logger, *(logging.getLogger(name) for name in logfile.THIRD_PARTY)):
        for handler in list(owner.handlers):
            if isinstance(handler, logfile.LogFile | logfile.TerminalLog):
                owner.removeHandler(handler)
                handler.close()
    logger.handlers[:], logger.level = saved


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_symlink_at_the_log_files_name_is_never_written_through(tmp_path: Path, restored: None) -> None:
    logs, victim = tmp_path / "logs", tmp_path / "victim"
    logs.mkdir(mode=0o700)
    victim.write_text("precious\n")
    (logs / logfile.LOG_FILE).symlink_to(victim)
    warnings = logfile.configure(env={logfile.ENV_LOG_DIR: str(logs)}, terminal=False)
    assert warnings == [f"cannot write the log file {logs / logfile.LOG_FILE} (it is a symbolic link); nothing is logged"]
    logging.getLogger("warmline.sync").warning("written somewhere")
    assert victim.read_text() == "precious\n"


def test_a_symlink_swapped_in_after_the_check_is_not_followed(
    tmp_path: Path, restored: None, capsys: pytest.CaptureFixture[str]
) -> None:
    logs, victim = tmp_path / "logs", tmp_path / "victim"
    victim.write_text("precious\n")
    assert logfile.configure(env={logfile.ENV_LOG_DIR: str(logs)}) == []
    path = logs / logfile.LOG_FILE
    path.unlink()
    path.symlink_to(victim)
    for n in range(5):
        logging.getLogger("warmline.sync").info("line %d", n)
    assert victim.read_text() == "precious\n"
    assert capsys.readouterr().err == f"Warning: cannot write the log file {path} (it is a symbolic link); logging stopped\n"


def test_a_symlinked_log_dir_is_refused_and_left_alone(tmp_path: Path, restored: None) -> None:
    shared, link = tmp_path / "shared", tmp_path / "link"
    shared.mkdir()
    shared.chmod(0o777)
    link.symlink_to(shared)
    warnings = logfile.configure(env={logfile.ENV_LOG_DIR: str(link)}, terminal=False)
    assert warnings == [
        f"cannot write the log file {link / logfile.LOG_FILE} (its directory is a symbolic link); nothing is logged"
    ]
    logging.getLogger("warmline.sync").warning("x")
    assert list(shared.iterdir()) == [] and mode(shared) == 0o777


def test_a_loose_log_dir_and_file_of_ours_are_tightened(tmp_path: Path, restored: None) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    logs.chmod(0o777)
    (logs / logfile.LOG_FILE).write_text("")
    (logs / logfile.LOG_FILE).chmod(0o666)
    assert logfile.configure(env={logfile.ENV_LOG_DIR: str(logs)}, terminal=False) == []
    assert mode(logs) == 0o700 and mode(logs / logfile.LOG_FILE) == 0o600
    logging.getLogger("warmline.sync").warning("kept")
    assert "kept" in (logs / logfile.LOG_FILE).read_text()


def test_a_fifo_at_the_log_files_name_does_not_block(tmp_path: Path, restored: None) -> None:
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    os.mkfifo(logs / logfile.LOG_FILE)
    warnings = logfile.configure(env={logfile.ENV_LOG_DIR: str(logs)}, terminal=False)
    assert len(warnings) == 1 and "nothing is logged" in warnings[0]


FULL_DISK = textwrap.dedent(
    """
    import logging, resource, signal, sys
    from warmline import logfile
    assert logfile.configure(env={logfile.ENV_LOG_DIR: sys.argv[1]}, debug=True) == []
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    log = logging.getLogger("warmline.sync")
    for n in range(2000):
        log.debug("request %d %s", n, "x" * 200)
    print("still running")
    """
)


def test_a_log_that_fills_up_is_one_warning_line(tmp_path: Path) -> None:
    """In a process of its own: the file size limit stands for a full disk."""
    logs = tmp_path / "logs"
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(logs)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "still running\n"
    assert "--- Logging error ---" not in done.stderr and "Traceback" not in done.stderr
    assert done.stderr == f"Warning: cannot write the log file {logs / logfile.LOG_FILE} (File too large); logging stopped\n"
