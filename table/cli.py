"""Registers the table commands: `score` and `waits` (table.score_cli), `game` (table.game_cli)."""

from __future__ import annotations

import importlib

MODULES = ("table.score_cli", "table.game_cli")


def register(commands, bench) -> None:
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(commands, bench)
