"""Riichi rules: tiles, hands, presets, scoring, waits and furiten, and the game's event log."""
