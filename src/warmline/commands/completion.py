"""`warmline completion SHELL`: the shell completion script for bash, zsh or fish.

Click completes: the script calls `warmline` back with `_WARMLINE_COMPLETE` set and the
words typed so far, and click answers with the commands, options and choices that fit.
`warmline.launch` sends such a call to the command line although it has no arguments
(plain `warmline` is otherwise the cockpit). This command prints the script that
`_WARMLINE_COMPLETE=bash_source warmline` prints, so the instructions need no variable.
"""

from __future__ import annotations

import click

from warmline.dispatch import COMPLETE_VAR

PROG_NAME = "warmline"
SHELLS = ("bash", "zsh", "fish")


@click.command("completion", short_help="Print the shell completion script (bash, zsh, fish).")
@click.argument("shell", metavar="SHELL", type=click.Choice(SHELLS))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> None:
    """Print the completion script for SHELL (bash, zsh or fish): save it where SHELL looks.

    \b
    bash  warmline completion bash > ~/.local/share/bash-completion/completions/warmline
    zsh   warmline completion zsh > ~/.zfunc/_warmline
          (and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath))
    fish  warmline completion fish > ~/.config/fish/completions/warmline.fish

    Or load it at every start of the shell, e.g. `eval "$(warmline completion bash)"` in
    ~/.bashrc (each new shell then runs warmline once). A new shell picks it up.
    """
    from click.shell_completion import get_completion_class  # deferred: command line

    completer = get_completion_class(shell)
    assert completer is not None  # every name in SHELLS is one of click's
    root = ctx.find_root().command
    click.echo(
        completer(root, {}, PROG_NAME, COMPLETE_VAR).source(), nl=False
    )  # as click prints it


COMMANDS = [completion]
