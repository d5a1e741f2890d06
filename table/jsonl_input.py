"""Field checks every `jantaku score --jsonl` input line shares, riichi or not, so both streams word faults alike;
and the one check every JSON object a person wrote gets (an event file, an API body): no field given twice."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from table.errors import InputError


def unique_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads`'s `object_pairs_hook`: an object naming a field twice is refused, as an option given twice is on
    the command line (JSON keeps the last one, so `{"seat": 1, "seat": 2}` recorded seat 2 without a word)."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise InputError(f"the field \"{key}\" is given twice in one object: give it once")
        obj[key] = value
    return obj


_KEY_END = re.compile(rb'"\s*:')  # a key's end; a string value holding '":' matches too, costing a reparse


def _fields(obj: object) -> int:
    if isinstance(obj, dict):
        return len(obj) + sum(map(_fields, obj.values()))
    return sum(map(_fields, obj)) if isinstance(obj, list) else 0


def loads_unique(line: str | bytes, loads: Callable[[str | bytes], Any] = json.loads) -> Any:
    """`line` parsed by the fast `loads` (orjson, which has no pairs hook), refusing a field given twice: when the
    parsed objects hold fewer fields than the line has key ends, the line is parsed again with `unique_fields`
    (the count can only run over, by a value holding '":', never under)."""
    obj = loads(line)
    raw = line.encode() if isinstance(line, str) else line
    if len(_KEY_END.findall(raw)) != _fields(obj):
        json.loads(raw, object_pairs_hook=unique_fields)
    return obj


def jsonl_object(obj: object, known: frozenset[str]) -> dict:
    """The line's object, refusing anything but a JSON object and fields outside `known` (typos must not be
    silently ignored: a misspelt "riichi" would score a different hand)."""
    if not isinstance(obj, dict):
        raise InputError("each line must be a JSON object with at least \"hand\" and \"win\"")
    unknown = obj.keys() - known
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(sorted(unknown))}: known are {', '.join(sorted(known))}")
    return obj


def hand_fields(obj: dict) -> tuple[str, str, list]:
    """The "hand", "win" and "melds" fields, type-checked (the tiles themselves are parsed by `parse_hand`)."""
    hand_text, win = obj.get("hand"), obj.get("win")
    if not isinstance(hand_text, str) or not isinstance(win, str):
        raise InputError("fields \"hand\" (concealed tiles) and \"win\" (winning tile) are required strings")
    melds = [] if obj.get("melds") is None else obj["melds"]
    if not isinstance(melds, list):
        raise InputError("field \"melds\" must be a list")
    return hand_text, win, melds


def wind_fields(obj: dict) -> tuple[str, str]:
    """The "seat" and "round" winds as given (East when absent), type-checked."""
    seat, round_ = obj.get("seat", "E"), obj.get("round", "E")
    if not isinstance(seat, str) or not isinstance(round_, str):
        raise InputError("fields \"seat\" and \"round\" are winds: E, S, W or N")
    return seat, round_
