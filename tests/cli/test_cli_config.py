"""`warmline config path|show|init|set|edit`, `warmline key set|show|path`, and where the
API key comes from: WARMLINE_API_KEY > api_key_cmd > the keyring > the file (issue #14).

The keyring is faked: a `keyring` module put in `sys.modules` with the calls Warmline makes
(`get_keyring`, `set_password`, `get_password`), its backend class named as the real
package names its unusable ones (`keyring.backends.fail`). The key command is a small
Python script run by its interpreter."""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import subprocess
import sys
import tomllib
import types
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest
from click.testing import CliRunner, Result

import warmline.commands.config as config_commands
import warmline.config as config_module
from warmline.cli import main
from warmline.config import (
    EXAMPLE_CONFIG,
    KEY_FROM_COMMAND,
    KEY_FROM_ENV,
    KEY_FROM_FILE,
    KEY_FROM_KEYRING,
    KEYRING_SERVICE,
    KEYRING_USER,
    KNOWN_SETTINGS,
    Config,
    ConfigError,
    check_settings,
    load_config,
)

SECRET = "sk-live-0123456789abcdefSECRET"


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def cfg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The config file's path (not created), the environment free of Warmline's variables
    but for it and a data dir, and the umask a rep usually has (022)."""
    for name in list(os.environ):
        if name.startswith("WARMLINE_") or name in {"VISUAL", "EDITOR"}:
            monkeypatch.delenv(name)
    path = tmp_path / "conf" / "config.toml"
    monkeypatch.setenv("WARMLINE_CONFIG", str(path))
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setitem(sys.modules, "keyring", None)  # no keyring unless a test fakes one
    previous = os.umask(0o022)
    yield path
    os.umask(previous)


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def one_error_line(result: Result) -> str:
    """The failure's one line: the last on stderr, the only one that is an error."""
    lines = result.stderr.strip().splitlines()
    assert [line for line in lines if line.startswith("Error: ")] == lines[-1:], result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return lines[-1]


class FakeKeyring:
    """A stand-in for the `keyring` package: what Warmline calls, and a dict of entries."""

    def __init__(
        self, backend_module: str = "keyring.backends.SecretService", refuse: bool = False
    ) -> None:
        self.entries: dict[tuple[str, str], str] = {}
        self.module = types.ModuleType("keyring")
        backend = type("Keyring", (), {"__module__": backend_module})
        self.module.get_keyring = backend  # type: ignore[attr-defined]
        self.module.get_password = lambda service, user: self.entries.get((service, user))  # type: ignore[attr-defined]
        self.refuse = refuse

        def set_password(service: str, user: str, password: str) -> None:
            if self.refuse:
                raise RuntimeError("the collection is locked")
            self.entries[(service, user)] = password

        self.module.set_password = set_password  # type: ignore[attr-defined]


@pytest.fixture
def fake_keyring(cfg: Path, monkeypatch: pytest.MonkeyPatch) -> FakeKeyring:
    fake = FakeKeyring()
    monkeypatch.setitem(sys.modules, "keyring", fake.module)
    return fake


def key_script(tmp_path: Path, body: str) -> str:
    """`api_key_cmd` running a tiny Python script, quoted as the config file holds it."""
    script = tmp_path / "key command.py"  # a space: the command is split as a shell would
    script.write_text(body, encoding="utf-8")
    return shlex.join([sys.executable, str(script)])


def write_config(path: Path, text: str, file_mode: int = 0o600) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.chmod(path, file_mode)
    return path


# --- path, and where the file lives on each OS --------------------------------------------------


def test_config_path_prints_the_file_and_says_when_it_is_missing(cfg: Path) -> None:
    result = run("config", "path")
    assert result.exit_code == 0
    assert result.stdout == f"{cfg}\n"
    assert "config init" in result.stderr
    write_config(cfg, "")
    assert run("config", "path").stderr == ""


def test_without_warmline_config_the_path_is_platformdirs_user_config_dir(
    cfg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WARMLINE_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    expected = Path(platformdirs.user_config_dir("warmline")) / "config.toml"
    assert run("config", "path").stdout.strip() == str(expected)
    if sys.platform.startswith("linux"):
        assert expected == tmp_path / "xdg" / "warmline" / "config.toml"


def test_the_places_the_help_and_readme_give_are_platformdirs_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each system's place computed by platformdirs' own class for it (Windows' known
    folders, which it asks Windows for, given here)."""
    import platformdirs.windows
    from platformdirs.macos import MacOS
    from platformdirs.unix import Unix
    from platformdirs.windows import Windows

    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    folders = {
        "CSIDL_LOCAL_APPDATA": r"C:\Users\dana\AppData\Local",
        "CSIDL_APPDATA": r"C:\Users\dana\AppData\Roaming",
    }
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", folders.__getitem__)
    home = os.path.expanduser("~")
    linux = Unix("warmline").user_config_dir.replace(home, "~") + "/config.toml"
    mac = MacOS("warmline").user_config_dir.replace(home, "~") + "/config.toml"
    windows = Windows("warmline").user_config_dir.replace(
        r"C:\Users\dana\AppData\Local", "%LOCALAPPDATA%"
    )
    assert (linux, mac) == (
        "~/.config/warmline/config.toml",
        "~/Library/Application Support/warmline/config.toml",
    )
    assert windows.replace("/", "\\") == r"%LOCALAPPDATA%\warmline\warmline"
    help_text = run("--help").stdout
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    guide = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    for text in (help_text, readme, guide, run("config", "--help").stdout):
        assert (
            linux in text and mac in text and windows.replace("/", "\\") + "\\config.toml" in text
        )


# --- init, and the example it writes -------------------------------------------------------------


def test_init_writes_the_example_0600_in_a_0700_directory_and_refuses_to_overwrite(
    cfg: Path,
) -> None:
    result = run("config", "init")
    assert result.exit_code == 0, result.output
    assert cfg.read_text(encoding="utf-8") == EXAMPLE_CONFIG
    assert mode(cfg) == 0o600 and mode(cfg.parent) == 0o700
    cfg.write_text(EXAMPLE_CONFIG + "# mine\n", encoding="utf-8")
    again = run("config", "init")
    assert again.exit_code == 1
    assert "--force" in one_error_line(again)
    assert cfg.read_text(encoding="utf-8").endswith("# mine\n")
    forced = run("config", "init", "--force")
    assert forced.exit_code == 0
    assert cfg.read_text(encoding="utf-8") == EXAMPLE_CONFIG and mode(cfg) == 0o600
    backup = cfg.with_name("config.toml.bak")
    assert backup.read_text(encoding="utf-8").endswith("# mine\n") and mode(backup) == 0o600


def test_the_example_is_the_defaults_and_sets_no_key(tmp_path: Path) -> None:
    path = write_config(tmp_path / "config.toml", EXAMPLE_CONFIG)
    loaded = load_config(path, env={})
    assert (
        loaded.api_key is None and loaded.key_source is None
    )  # the cockpit shows the first-run screen
    defaults = Config(data_dir=loaded.data_dir)
    assert (
        loaded.base_url,
        loaded.theme,
        loaded.keymap,
        loaded.flush_concurrency,
        loaded.undo_seconds,
        loaded.annotate_late_activities,
    ) == (
        defaults.base_url,
        defaults.theme,
        {},
        defaults.flush_concurrency,
        defaults.undo_seconds,
        defaults.annotate_late_activities,
    )


def test_the_example_shows_every_setting_and_each_works_uncommented(tmp_path: Path) -> None:
    """Complete: each setting Warmline reads has a commented-out line; right: with them all
    uncommented the file is accepted and (but for the placeholders) means the defaults."""
    examples = re.findall(r"^# (\"?[\w.]+\"?) = (.+)$", EXAMPLE_CONFIG, re.MULTILINE)
    shown = {name.strip('"') for name, _ in examples}
    for table, names in KNOWN_SETTINGS.items():
        for name in names:
            if name not in {"service", "ui", "keys", "sync"}:  # a table, not a setting
                assert name in shown, f"{table}.{name} has no example line"
    uncommented = re.sub(r"^# (\"?[\w.]+\"? = .+)$", r"\1", EXAMPLE_CONFIG, flags=re.MULTILINE)
    raw = tomllib.loads(uncommented)
    settings = check_settings(raw, tmp_path / "x.toml")
    assert (
        settings.base_url == config_module.DEFAULT_BASE_URL
        and settings.theme == config_module.DEFAULT_THEME
    )
    assert (settings.flush_concurrency, settings.undo_seconds, settings.annotate_late_activities) == (
        4,
        5.0,
        False,
    )
    assert settings.api_key_cmd == "pass show warmline" and settings.use_keyring is False
    assert config_module.unknown_settings(raw) == []
    assert set(raw["keys"]) <= {"recommendations.complete"}


# --- show ---------------------------------------------------------------------------------------


def test_show_masks_the_key_and_says_where_each_setting_comes_from(
    cfg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(cfg, f'[service]\napi_key = "{SECRET}"\n[sync]\nconcurrency = 2\n')
    result = run("config", "show")
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert lines["service.api_key"].split()[1:] == ["****CRET", "(config", "file)"]
    assert lines["sync.concurrency"].endswith("2  (config file)")
    assert lines["ui.theme"].endswith("(default)")
    assert lines["data_dir"].endswith("(WARMLINE_DATA_DIR)")
    monkeypatch.setenv("WARMLINE_API_KEY", "short")
    shown = json.loads(run("config", "show", "--json").stdout)
    assert shown["settings"]["service.api_key"] == {"value": "****", "from": "WARMLINE_API_KEY"}


def test_show_names_settings_warmline_does_not_read(cfg: Path) -> None:
    write_config(cfg, '[service]\napi_kye = "x"\n')
    result = run("config", "show")
    assert result.exit_code == 0
    assert "service.api_kye" in result.stderr


def test_show_does_not_run_the_key_command(cfg: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    command = key_script(tmp_path, f"open({str(marker)!r}, 'w').write('x'); print('k')\n")
    write_config(cfg, f"[service]\napi_key_cmd = {json.dumps(command)}\n")
    result = run("config", "show")
    assert result.exit_code == 0
    assert "(fetched when needed)" in result.stdout and not marker.exists()


# --- set ----------------------------------------------------------------------------------------


def test_set_keeps_the_comments_and_puts_the_value_under_its_example(cfg: Path) -> None:
    run("config", "init")
    result = run("config", "set", "sync.undo_seconds", "2.5")
    assert result.exit_code == 0, result.output
    assert run("config", "set", "theme", "warmline-light").exit_code == 0  # the short name
    text = cfg.read_text(encoding="utf-8")
    comments = [line for line in EXAMPLE_CONFIG.splitlines() if line.startswith("#")]
    assert [line for line in text.splitlines() if line.startswith("#")] == comments
    assert "# undo_seconds = 5\nundo_seconds = 2.5\n" in text
    assert '# theme = "warmline-dark"\ntheme = "warmline-light"\n' in text
    loaded = load_config(cfg, env={})
    assert (loaded.undo_seconds, loaded.theme) == (2.5, "warmline-light")
    assert mode(cfg) == 0o600


def test_set_the_today_settings(cfg: Path) -> None:
    run("config", "init")
    assert run("config", "set", "start_screen", "leads").exit_code == 0
    assert run("config", "set", "ui.cold_after_days", "21").exit_code == 0
    text = cfg.read_text(encoding="utf-8")
    assert '# start_screen = "today"\nstart_screen = "leads"\n' in text
    assert "# cold_after_days = 14\ncold_after_days = 21\n" in text
    loaded = load_config(cfg, env={})
    assert (loaded.start_screen, loaded.cold_after_days) == ("leads", 21)
    shown = run("config", "show").output
    assert "ui.start_screen" in shown and "ui.cold_after_days" in shown


def test_set_creates_a_missing_file_0600(cfg: Path) -> None:
    result = run("config", "set", "concurrency", "8")
    assert result.exit_code == 0, result.output
    assert tomllib.loads(cfg.read_text(encoding="utf-8")) == {"sync": {"concurrency": 8}}
    assert mode(cfg) == 0o600


@pytest.mark.parametrize(
    "key, value, fragment",
    [
        ("colour", "red", "unknown setting 'colour'"),
        ("sync.concurrency", "40", "concurrency must be a whole number from 1 to 16"),
        ("sync.concurrency", "many", "must be a whole number"),
        ("undo_seconds", "90", "undo_seconds must be a number from 0 to 60"),
        ("annotate_late_activities", "maybe", "must be true or false"),
        ("base_url", "http://api.example.com/", "Refusing plain http://"),
        ("api_key_cmd", "pass 'unclosed", "cannot be read as a command"),
        ("api_key", SECRET, "warmline key set"),
        ("keys.list.open", "x", "config edit"),
        ("keyring", "true", "`keyring` extra is not installed"),
        ("start_screen", "outbox", '[ui] start_screen must be "today" or "leads"'),
        ("cold_after_days", "0", "[ui] cold_after_days must be a whole number from 1 to 365"),
        ("cold_after_days", "two weeks", "must be a whole number of days from 1 to 365"),
    ],
)
def test_set_refuses_in_one_line_with_exit_2_and_changes_nothing(
    cfg: Path, key: str, value: str, fragment: str
) -> None:
    write_config(cfg, "# mine\n[sync]\nconcurrency = 3\n")
    before = cfg.read_text(encoding="utf-8")
    result = run("config", "set", key, value)
    assert result.exit_code == 2
    assert fragment in one_error_line(result)
    assert cfg.read_text(encoding="utf-8") == before
    assert SECRET not in result.output


def test_set_api_key_cmd_to_nothing_removes_it(cfg: Path) -> None:
    write_config(
        cfg,
        '[service]\napi_key_cmd = "pass show warmline" # mine\nbase_url = "https://a.example/"\n',
    )
    assert run("config", "set", "api_key_cmd", "").exit_code == 0
    assert tomllib.loads(cfg.read_text(encoding="utf-8")) == {
        "service": {"base_url": "https://a.example/"}
    }


def test_set_refuses_to_touch_a_file_the_cockpit_would_refuse(cfg: Path) -> None:
    write_config(cfg, "[sync]\nconcurrency = 0\n")
    result = run("config", "set", "theme", "warmline-light")
    assert result.exit_code == 2
    assert "concurrency must be" in one_error_line(result)


# --- edit ---------------------------------------------------------------------------------------


def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, appended: str) -> None:
    """$EDITOR: a script that appends `appended` to the file it is given."""
    script = tmp_path / "editor.py"
    script.write_text(
        f"import sys\nwith open(sys.argv[1], 'a', encoding='utf-8') as f:\n    f.write({appended!r})\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("EDITOR", shlex.join([sys.executable, str(script)]))


def test_edit_creates_the_file_from_the_example_opens_the_editor_and_checks(
    cfg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor(tmp_path, monkeypatch, 'data_dir = "~/elsewhere"\n')
    result = run("config", "edit")
    assert result.exit_code == 2  # data_dir after the tables is inside [sync]: a typo-like mistake
    assert "sync.data_dir (at the top of the file, before any [table]?)" in one_error_line(result)
    assert cfg.read_text(encoding="utf-8").startswith(EXAMPLE_CONFIG) and mode(cfg) == 0o600


def test_edit_reports_a_bad_value_in_one_line(
    cfg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(cfg, "[ui]\n")
    editor(tmp_path, monkeypatch, "[sync]\nconcurrency = 99\n")
    result = run("config", "edit")
    assert result.exit_code == 2
    assert f"{cfg}: [sync] concurrency must be a whole number from 1 to 16" in one_error_line(
        result
    )


def test_edit_of_a_good_file_says_so(
    cfg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(cfg, "[ui]\n")
    editor(tmp_path, monkeypatch, "[sync]\nconcurrency = 9\n")
    monkeypatch.setenv("VISUAL", os.environ["EDITOR"])  # VISUAL first, as click looks
    monkeypatch.setenv("EDITOR", "no-such-editor-at-all")
    result = run("config", "edit")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{cfg} is fine.\n"
    assert load_config(cfg, env={}).flush_concurrency == 9


# --- key set ------------------------------------------------------------------------------------


def test_key_set_prompts_without_echo_and_stores_it_in_the_file_0600(
    cfg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_commands, "stdin_is_terminal", lambda: True)
    write_config(cfg, "# mine\n[service]\n", file_mode=0o644)
    result = run("key", "set", input=f"{SECRET}\n")
    assert result.exit_code == 0, result.output
    assert "API key: " in result.stdout
    assert SECRET not in result.output  # the prompt did not echo it, nothing printed it
    assert mode(cfg) == 0o600
    assert cfg.read_text(encoding="utf-8").startswith("# mine\n")
    assert load_config(cfg, env={}).api_key == SECRET
    assert "`keyring` extra is not installed; add it with: " in result.stderr


def test_key_set_reads_standard_input_when_it_is_not_a_terminal(cfg: Path) -> None:
    result = run("key", "set", input=f"  {SECRET}\n")
    assert result.exit_code == 0, result.output
    assert "API key:" not in result.stdout  # no prompt for a script
    loaded = load_config(cfg, env={})
    assert (loaded.api_key, loaded.key_source) == (SECRET, KEY_FROM_FILE)


@pytest.mark.parametrize("given", ["", "\n", "two words\n", "tab\there\n"])
def test_key_set_refuses_no_key_or_one_that_is_not_a_word(cfg: Path, given: str) -> None:
    result = run("key", "set", input=given)
    assert result.exit_code == 2
    assert "nothing was stored" in one_error_line(result)
    assert not cfg.exists()


def test_key_set_says_when_the_environment_or_a_command_wins(
    cfg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(cfg, '[service]\napi_key_cmd = "pass show warmline"\n')
    monkeypatch.setenv("WARMLINE_API_KEY", "from-env")
    result = run("key", "set", input=SECRET)
    assert result.exit_code == 0
    assert "WARMLINE_API_KEY is set" in result.stderr and "api_key_cmd" in result.stderr


def test_key_set_uses_the_keyring_and_takes_the_key_out_of_the_file(
    cfg: Path, fake_keyring: FakeKeyring
) -> None:
    write_config(cfg, '# mine\n[service]\napi_key = "old-key"\nbase_url = "https://a.example/"\n')
    result = run("key", "set", input=SECRET)
    assert result.exit_code == 0, result.output
    assert fake_keyring.entries == {(KEYRING_SERVICE, KEYRING_USER): SECRET}
    assert tomllib.loads(cfg.read_text(encoding="utf-8")) == {
        "service": {"base_url": "https://a.example/", "keyring": True}
    }
    loaded = load_config(cfg, env={})
    assert (loaded.api_key, loaded.key_source) == (SECRET, KEY_FROM_KEYRING)
    shown = run("key", "show")
    assert shown.stdout == "****CRET  (from the system keyring, warmline / api_key)\n"
    assert run("key", "path").stdout == "system keyring: service warmline, user api_key\n"


@pytest.mark.parametrize("unusable", ["fail-backend", "refuses"])
def test_key_set_falls_back_to_the_file_when_the_keyring_cannot_hold_it(
    cfg: Path, monkeypatch: pytest.MonkeyPatch, unusable: str
) -> None:
    fake = (
        FakeKeyring("keyring.backends.fail")
        if unusable == "fail-backend"
        else FakeKeyring(refuse=True)
    )
    monkeypatch.setitem(sys.modules, "keyring", fake.module)
    result = run("key", "set", input=SECRET)
    assert result.exit_code == 0, result.output
    assert fake.entries == {}
    assert load_config(cfg, env={}).key_source == KEY_FROM_FILE and mode(cfg) == 0o600
    assert "Not in a keyring" in result.stderr


def test_key_set_file_skips_an_available_keyring(cfg: Path, fake_keyring: FakeKeyring) -> None:
    assert run("key", "set", "--file", input=SECRET).exit_code == 0
    assert fake_keyring.entries == {} and load_config(cfg, env={}).api_key == SECRET


def test_key_show_without_a_key(cfg: Path) -> None:
    result = run("key", "show", "--masked")
    assert result.exit_code == 2
    assert "warmline key set" in one_error_line(result)
    assert run("key", "path").stdout == f"{cfg}\n"


# --- where the key comes from -------------------------------------------------------------------


def test_precedence_env_then_command_then_keyring_then_file(
    cfg: Path, tmp_path: Path, fake_keyring: FakeKeyring
) -> None:
    fake_keyring.entries[(KEYRING_SERVICE, KEYRING_USER)] = "from-keyring"
    command = key_script(tmp_path, "print('from-command')\n")
    text = (
        f'[service]\napi_key = "from-file"\nkeyring = true\napi_key_cmd = {json.dumps(command)}\n'
    )
    write_config(cfg, text)
    found = load_config(cfg, env={"WARMLINE_API_KEY": "from-env"})
    assert (found.api_key, found.key_source) == ("from-env", KEY_FROM_ENV)
    found = load_config(cfg, env={})
    assert (found.api_key, found.key_source) == ("from-command", KEY_FROM_COMMAND)
    write_config(cfg, text.replace("api_key_cmd", "# api_key_cmd"))
    found = load_config(cfg, env={})
    assert (found.api_key, found.key_source) == ("from-keyring", KEY_FROM_KEYRING)
    fake_keyring.entries.clear()
    found = load_config(cfg, env={})
    assert (found.api_key, found.key_source) == ("from-file", KEY_FROM_FILE)
    assert "from-" not in repr(found)


def test_a_keyring_the_config_names_but_is_not_installed_is_one_line(cfg: Path) -> None:
    write_config(cfg, "[service]\nkeyring = true\n")
    with pytest.raises(
        ConfigError, match=r"keyring = true, but the keyring package is not installed"
    ):
        load_config(cfg, env={})
    result = run("key", "show")
    assert result.exit_code == 2 and "`keyring` extra" in one_error_line(result)
    assert load_config(cfg, env={"WARMLINE_API_KEY": "k"}).api_key == "k"  # not even looked for


def test_the_key_command_output_is_stripped_and_its_first_line_used(
    cfg: Path, tmp_path: Path
) -> None:
    command = key_script(tmp_path, "print('   the-key  '); print('login: dana')\n")
    write_config(cfg, f"[service]\napi_key_cmd = {json.dumps(command)}\n")
    assert load_config(cfg, env={}).api_key == "the-key"
    result = run("key", "show")
    assert result.stdout == "****  (from api_key_cmd in the config file)\n"


@pytest.mark.parametrize(
    "body, fragment",
    [
        (
            "import sys\nsys.stderr.write('gpg: decryption failed\\n')\nsys.exit(3)\n",
            "failed (exit 3); run it yourself to see its messages",  # its stderr never quoted
        ),
        ("print('   ')\n", "printed nothing"),
        ("import sys\nsys.stdout.buffer.write(b'\\xff\\xfe')\n", "not UTF-8"),
    ],
)
def test_a_failing_key_command_is_one_line_naming_it(
    cfg: Path, tmp_path: Path, body: str, fragment: str
) -> None:
    command = key_script(tmp_path, body)
    write_config(cfg, f"[service]\napi_key_cmd = {json.dumps(command)}\n")
    with pytest.raises(ConfigError) as info:
        load_config(cfg, env={})
    message = str(info.value)
    assert fragment in message and "api_key_cmd" in message and "\n" not in message
    result = run("sync", "--once")  # any command that needs the key
    assert result.exit_code == 2
    assert fragment in one_error_line(result)


def test_a_key_command_that_hangs_is_stopped_at_the_timeout(
    cfg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child waits forever on a pipe nobody writes to; the timeout, whatever it is, ends it."""
    monkeypatch.setattr(config_module, "KEY_COMMAND_TIMEOUT", 0.3)
    command = key_script(tmp_path, "import os\nr, w = os.pipe()\nos.read(r, 1)\n")
    write_config(cfg, f"[service]\napi_key_cmd = {json.dumps(command)}\n")
    with pytest.raises(ConfigError, match=r"did not finish within 0.3 s"):
        load_config(cfg, env={})


def test_a_key_command_that_does_not_exist(cfg: Path) -> None:
    write_config(cfg, '[service]\napi_key_cmd = "no-such-password-manager show warmline"\n')
    with pytest.raises(ConfigError, match=r"no-such-password-manager not found"):
        load_config(cfg, env={})


def test_the_key_command_runs_without_a_shell(cfg: Path, tmp_path: Path) -> None:
    marker = tmp_path / "injected"
    command = key_script(tmp_path, "import sys\nprint(sys.argv[1])\n") + f" 'k;touch {marker}'"
    write_config(cfg, f"[service]\napi_key_cmd = {json.dumps(command)}\n")
    assert load_config(cfg, env={}).api_key == f"k;touch {marker}"
    assert not marker.exists()


# --- the readable-file warning ------------------------------------------------------------------


def test_a_key_file_others_can_read_is_one_warning_line_with_the_fix(
    cfg: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config(cfg, f'[service]\napi_key = "{SECRET}"\n', file_mode=0o644)
    load_config(cfg, env={})
    err = capsys.readouterr().err
    assert (
        err
        == f"Warning: {cfg} holds the API key and other users can read it (mode 0644); run: chmod 600 {cfg}\n"
    )
    private = write_config(cfg.with_name("private.toml"), f'[service]\napi_key = "{SECRET}"\n')
    keyless = write_config(cfg.with_name("keyless.toml"), "[ui]\n", file_mode=0o644)
    load_config(private, env={})
    load_config(keyless, env={})
    assert capsys.readouterr().err == ""


def test_the_warning_reaches_a_command_s_stderr(cfg: Path) -> None:
    write_config(cfg, f'[service]\napi_key = "{SECRET}"\n', file_mode=0o640)
    result = run("key", "show")
    assert result.exit_code == 0
    assert f"run: chmod 600 {cfg}" in result.stderr and SECRET not in result.output


# --- start-up cost ------------------------------------------------------------------------------


def test_the_cockpit_path_loads_neither_keyring_nor_tomlkit(cfg: Path, tmp_path: Path) -> None:
    """A config with a plain key: the start-up path imports no keyring, no TOML writer."""
    write_config(cfg, '[service]\napi_key = "k"\n')
    code = (
        "import json, sys\n"
        "import warmline.launch, warmline.cockpit, warmline.store, warmline.tui.app\n"
        "from warmline.config import load_config\n"
        "assert load_config().api_key == 'k'\n"
        "print(json.dumps(sorted(m for m in ('keyring', 'tomlkit', 'click') if m in sys.modules)))\n"
    )
    env = {**os.environ, "WARMLINE_CONFIG": str(cfg)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert json.loads(out.stdout) == []


def test_the_cockpit_stops_before_opening_when_the_key_command_fails(
    cfg: Path, tmp_path: Path
) -> None:
    """Plain `warmline` (the console script's fast path, no click) says it in one line, exit 2."""
    command = key_script(tmp_path, "import sys\nsys.exit(1)\n")
    write_config(cfg, f"[service]\napi_key_cmd = {json.dumps(command)}\n")
    done = subprocess.run(
        [sys.executable, "-m", "warmline"],
        env={**os.environ, "TERM": "dumb"},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,  # a cap on a hung run, not a timing assertion
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        done.stderr.count("\n") == 1
        and "api_key_cmd" in done.stderr
        and "failed (exit 1)" in done.stderr
    )


def test_a_setting_in_the_wrong_place_is_named_once_by_any_command(cfg: Path) -> None:
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('base_url = "http://127.0.0.1:9"\n', encoding="utf-8")
    shown = run("config", "show")
    assert shown.exit_code == 0, shown.output
    assert shown.stderr.splitlines() == [f"{cfg}: Warmline does not read base_url (under [service]?)"]
    assert json.loads(run("config", "show", "--json").stdout)["unknown"] == ["base_url"]
