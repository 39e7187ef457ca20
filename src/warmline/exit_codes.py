"""The exit codes of every `warmline` command (docs/cli.md), kept free of click so that
the cockpit's fast start (`warmline.launch`) can use them too."""

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_BAD_INPUT = 2
"""Bad input: an unknown or ambiguous lead, text outside the spec's limits, an unknown op,
a malformed config file (click's own usage errors are 2 as well)."""
EXIT_AUTH = 3
"""The service refused the API key, or none is configured."""
EXIT_OFFLINE = 4
"""Offline: the service could not be reached."""
EXIT_CACHE = 5
"""The local cache cannot be used: damaged or not SQLite, a directory, its data dir a file
or not ours to read and write, locked. Nothing is deleted; the message names the file."""

EXIT_CODES_HELP = (
    f"Exit codes: {EXIT_OK} ok, {EXIT_ERROR} other error, {EXIT_BAD_INPUT} bad input,"
    f" {EXIT_AUTH} API key refused or missing, {EXIT_OFFLINE} offline, {EXIT_CACHE} local cache unusable."
)
"""The epilog of each command's `--help`."""
