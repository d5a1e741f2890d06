"""Helpers for driving `jantaku game ...` through the `jantaku` fixture (tests/conftest.py)."""

from __future__ import annotations

import json


def ok(jantaku, *args: str) -> str:
    code, out, err = jantaku(*args)
    assert code == 0, err
    return out


def refused(jantaku, *args: str) -> str:
    code, out, err = jantaku(*args)
    assert code == 2 and out == "", (code, out, err)
    return err


def state_of(jantaku) -> dict:
    return json.loads(ok(jantaku, "game", "show", "--json"))
