"""PLACEHOLDER - owned by the game-keeping work (issue 3): table-level rules per preset."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameRules:
    starting_points: int = 25000


GAME_RULES: dict[str, GameRules] = {}
