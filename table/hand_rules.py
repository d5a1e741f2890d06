"""PLACEHOLDER - owned by the scoring work (issue 2): hand-level rule options per preset."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HandRules:
    title: str


HAND_RULES: dict[str, HandRules] = {}
