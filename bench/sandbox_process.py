"""`warmline sandbox` on a free loopback port, in its own process: the benches' server.

Its own interpreter, so that serving never competes with the measured client for the GIL.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


class Sandbox:
    """Started on entry to the `with`; `url` is where it listens. `options` are the
    `warmline sandbox` options besides the port, the key and the database."""

    def __init__(self, db: Path, key: str, *options: str, log: Path | None = None) -> None:
        args = [sys.executable, "-m", "warmline", "sandbox", "--port", "0", "--db", str(db), *options]
        self.log = log
        env = {**os.environ, "WARMLINE_SANDBOX_API_KEY": key}  # not on the command line (ps)
        errors = log.open("w") if log is not None else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        finally:
            if log is not None:
                errors.close()
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if "listening on" not in line:
            self.proc.kill()
            raise SystemExit(f"the sandbox did not start: {line!r}")
        self.url = line.strip().rsplit(" ", 1)[-1]

    def check(self) -> None:
        """A sandbox that died (killed from outside) ends the bench with what it said."""
        if self.proc.poll() is not None:
            tail = self.log.read_text(errors="replace")[-2000:] if self.log is not None else ""
            raise SystemExit(f"the sandbox exited with {self.proc.returncode} during the bench:\n{tail}")

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
