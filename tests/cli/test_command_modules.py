"""How the command modules fit together: each top-level command is listed by exactly one
module, which owns the group whole (every subcommand), and no module of `warmline.commands`
reaches into another's private names (shared helpers have public names)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import click

from warmline import commands
from warmline.cli import main


def _command_modules() -> dict[str, list[click.Command]]:
    listed = {}
    for info in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        listed[info.name] = list(getattr(module, "COMMANDS", []))
    return listed


def test_every_command_is_listed_by_exactly_one_module() -> None:
    owners: dict[str, list[str]] = {}
    for module, listed in _command_modules().items():
        for command in listed:
            owners.setdefault(command.name, []).append(module)
    assert {name: mods for name, mods in owners.items() if len(mods) > 1} == {}
    assert owners["companies"] == ["companies"] and owners["contacts"] == ["contacts"]
    assert owners["lookup"] == ["search"] and owners["outreach"] == ["outreach"]
    assert owners["research"] == ["research"] and owners["outbox"] == ["outbox"]
    assert owners["demo"] == ["demo"] and owners["sync"] == ["sync"]


def test_the_cli_registers_what_the_modules_list() -> None:
    ctx = click.Context(main)
    listed = {command.name for commands_ in _command_modules().values() for command in commands_}
    assert set(main.list_commands(ctx)) == listed


def test_record_groups_hold_the_record_commands_and_the_prospecting_ones() -> None:
    ctx = click.Context(main)
    companies = main.get_command(ctx, "companies")
    contacts = main.get_command(ctx, "contacts")
    assert isinstance(companies, click.Group) and isinstance(contacts, click.Group)
    record_commands = {"show", "fields", "tags", "create", "edit", "delete"}
    assert set(companies.list_commands(ctx)) == record_commands | {"research"}
    assert set(contacts.list_commands(ctx)) == record_commands | {"list", "search", "found", "add"}


def _private_imports(path: Path) -> list[str]:
    """`from warmline.commands.X import _name` in one source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("warmline.commands."):
            found += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_command_modules_import_no_private_names_from_each_other() -> None:
    sources = sorted(Path(commands.__path__[0]).glob("*.py"))
    assert len(sources) > 5
    assert [hit for path in sources for hit in _private_imports(path)] == []


def test_a_private_import_is_noticed(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from warmline.commands.jobs_wait import _follow, run_job\n", encoding="utf-8")
    assert _private_imports(sample) == ["sample.py: warmline.commands.jobs_wait._follow"]
