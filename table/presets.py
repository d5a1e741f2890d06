"""Rule presets chosen by name: one object per preset, hand-level and table-level rules together.

Hand-level rules (what a hand is worth) live in `table.hand_rules`, table-level rules (how a game is
kept: points, uma, honba, draws, end of game) in `table.game_rules`; a `Preset` joins the two so
every caller passes one object around.
"""

from __future__ import annotations

from dataclasses import dataclass

from table.errors import InputError
from table.game_rules import GAME_RULES, GameRules
from table.hand_rules import HAND_RULES, HandRules


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    hand: HandRules
    game: GameRules

    @property
    def title(self) -> str:
        return self.hand.title


PRESETS: dict[str, Preset] = {
    name: Preset(name, HAND_RULES[name], GAME_RULES[name]) for name in HAND_RULES if name in GAME_RULES
}
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
DEFAULT_PRESET = "tenhou"


def get_preset(name: str) -> Preset:
    """The preset called `name` (case-insensitive), or InputError listing the known ones."""
    key = name.strip().lower()
    try:
        return PRESETS[key]
    except KeyError:
        raise InputError(f"unknown rules {name!r}: choose one of {', '.join(PRESET_NAMES)}") from None
