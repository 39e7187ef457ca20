from pathlib import Path

import pytest

from warmline.config import DEFAULT_BASE_URL, ConfigError, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_defaults_without_file(tmp_path: Path) -> None:
    config = load_config(tmp_path / "missing.toml", env={})
    assert config.base_url == DEFAULT_BASE_URL
    assert config.api_key is None
    assert not config.has_api_key
    assert config.source is None


def test_file_then_environment_precedence(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[service]\nbase_url = "https://file.example/"\napi_key = "file-key"\n'
        '[ui]\ntheme = "warmline-light"\n[keys]\n"recommendations.complete" = ["c", "enter"]\n',
    )
    from_file = load_config(path, env={})
    assert from_file.base_url == "https://file.example/"
    assert from_file.api_key == "file-key"
    assert from_file.theme == "warmline-light"
    assert from_file.keymap == {"recommendations.complete": "c,enter"}
    overridden = load_config(
        path,
        env={"WARMLINE_BASE_URL": "http://127.0.0.1:9", "WARMLINE_API_KEY": "env-key",
             "WARMLINE_DATA_DIR": str(tmp_path / "d")},
    )
    assert overridden.base_url == "http://127.0.0.1:9"
    assert overridden.api_key == "env-key"
    assert overridden.data_dir == tmp_path / "d"
    assert overridden.db_path.parent == tmp_path / "d"


def test_key_never_in_repr(tmp_path: Path) -> None:
    config = load_config(tmp_path / "none.toml", env={"WARMLINE_API_KEY": "sk-very-secret"})
    assert "sk-very-secret" not in repr(config)
    assert "sk-very-secret" not in str(config)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[service\n", "not valid TOML"),
        ("service = 3\n", "[service] must be a table"),
        ("[service]\nbase_url = 3\n", "base_url must be a string"),
        ("[keys]\nx = 3\n", "[keys] x must be a key"),
        ("[sync]\nconcurrency = 0\n", "concurrency must be a whole number"),
        ('[ui]\nstart_screen = "recommendations"\n', '[ui] start_screen must be "today" or "leads"'),
        ("[ui]\nstart_screen = 1\n", "start_screen must be a string"),
        ("[ui]\ncold_after_days = 0\n", "[ui] cold_after_days must be a whole number from 1 to 365"),
        ("[ui]\ncold_after_days = 366\n", "cold_after_days must be a whole number from 1 to 365"),
        ("[ui]\ncold_after_days = 7.5\n", "cold_after_days must be a whole number from 1 to 365"),
        ("[ui]\ncold_after_days = true\n", "cold_after_days must be a whole number from 1 to 365"),
    ],
)
def test_bad_file_is_a_clear_error(tmp_path: Path, text: str, fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path, env={})
    assert fragment in str(info.value)
    assert str(path) in str(info.value)



def test_a_file_with_several_bad_settings_names_them_all_in_one_line(tmp_path: Path) -> None:
    """A hand-edited file with six mistakes took six runs to fix: the check stopped at the
    first. Every bad setting is named now, once, in the order of the example file."""
    path = write(tmp_path, (
        'data_dir = 7\n[service]\nkeyring = "yes"\n[ui]\ncold_after_days = 0\nwork_days = 5\n'
        "[keys]\nleads = 3\n[sync]\nconcurrency = 99\n"
    ))
    with pytest.raises(ConfigError) as info:
        load_config(path, env={})
    message = str(info.value)
    assert message == (
        f"{path}: data_dir must be a string; [service] keyring must be true or false; "
        "[ui] cold_after_days must be a whole number from 1 to 365; "
        '[ui] work_days must be a string such as "mon-fri"; [keys] leads must be a key or a list of keys; '
        "[sync] concurrency must be a whole number from 1 to 16"
    )
    assert "\n" not in message

def test_today_settings_default_and_from_the_file(tmp_path: Path) -> None:
    defaults = load_config(tmp_path / "missing.toml", env={})
    assert (defaults.start_screen, defaults.cold_after_days) == ("today", 14)
    path = write(tmp_path, '[ui]\nstart_screen = "leads"\ncold_after_days = 30\n')
    configured = load_config(path, env={})
    assert (configured.start_screen, configured.cold_after_days) == ("leads", 30)


def test_a_setting_warmline_does_not_read_is_named_once_with_where_it_belongs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`base_url` at the top of the file (not under [service]) was ignored in silence: the
    cockpit went to the default service and said only that it could not reach it."""
    path = tmp_path / "config.toml"
    path.write_text('base_url = "http://127.0.0.1:9"\n[ui]\ncold_after_day = 10\n')
    config = load_config(path, env={})
    assert config.base_url == DEFAULT_BASE_URL
    assert config.unread_settings == ("base_url (under [service]?)", "ui.cold_after_day (ui.cold_after_days?)")
    warned = capsys.readouterr().err.splitlines()
    assert warned == [
        f"{path}: Warmline does not read base_url (under [service]?), ui.cold_after_day (ui.cold_after_days?)"
    ]
    load_config(path, env={})
    assert capsys.readouterr().err == ""  # once per file per process
