"""Commands of the `warmline` CLI, one module per family; each module lists its `COMMANDS`."""
