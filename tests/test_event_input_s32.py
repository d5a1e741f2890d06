"""Events that enter a game other than by `jantaku game`'s own flags: an event file (`game replay`), the JSON API,
and logs stored by older versions. What the command line refuses because it would record a wrong game, these
refuse too, with the field named; a stored log still loads."""

from __future__ import annotations

import json

import pytest
from helpers_device import make_assistant

from web import create_app

START = {"type": "game_started", "players": ["Ann", "Bob", "Cid", "Dee"], "preset": "tenhou"}


@pytest.fixture
def api(tmp_path):
    """A keeper logged in to the table device's API, a tenhou game started: (client, headers, assistant)."""
    assistant = make_assistant(tmp_path)
    assistant.start_game(["Aki", "Ben", "Cid", "Dee"], "tenhou")
    app = create_app(assistant.config, assistant)
    app.testing = True
    client = app.test_client()
    token = client.post("/api/login", json={"pin": assistant.config.pin}).get_json()["csrf_token"]
    yield client, {"X-CSRF-Token": token}, assistant
    assistant.store.close()


def events_of(assistant) -> list[dict]:
    return [e.to_json() for e in assistant.store.events(assistant.game_id())]


def replay(jantaku, tmp_path, *lines: str) -> tuple[int, str, str]:
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join([json.dumps(START), *lines]) + "\n", encoding="utf-8")
    return jantaku("game", "replay", str(path), "--json")


# -- a field given twice ------------------------------------------------------------------------------------


def test_an_event_file_naming_a_field_twice_is_refused_not_read_as_the_last(jantaku, tmp_path):
    """`{"seat": 1, "seat": 2}` declared seat 2's riichi: JSON keeps the last, as the command line never does."""
    code, _, err = replay(jantaku, tmp_path, '{"type": "riichi", "seat": 1, "seat": 2}')
    assert code == 2 and 'events.jsonl:2: the field "seat" is given twice' in err
    code, _, err = replay(jantaku, tmp_path, '{"type": "ron", "discarder": 0, "wins": [{"seat": 1, "han": 3, '
                                             '"fu": 30, "han": 1}]}')
    assert code == 2 and 'events.jsonl:2: the field "han" is given twice' in err


def test_an_api_body_naming_a_field_twice_is_a_400_and_records_nothing(api):
    client, headers, assistant = api
    before = events_of(assistant)
    for path, raw in (("/api/riichi", '{"seat": 1, "seat": 2}'),
                      ("/api/ron", '{"discarder": 0, "winners": [{"seat": 1, "han": 3, "fu": 30, "han": 1}]}')):
        resp = client.post(path, data=raw, headers={**headers, "Content-Type": "application/json"})
        assert resp.status_code == 400 and "is given twice" in resp.get_json()["error"], path
    assert events_of(assistant) == before


def test_an_event_file_the_json_parser_cannot_take_is_a_reason_not_a_traceback(jantaku, tmp_path):
    code, _, err = replay(jantaku, tmp_path, '{"type": "riichi", "seat": ' + "9" * 5000 + "}")
    assert code == 2 and "events.jsonl:2: a number is too long (over 4300 digits)" in err
    code, _, err = replay(jantaku, tmp_path, "[" * 100_000)
    assert code == 2 and "events.jsonl:2: not an event: nested too deep" in err


# -- a field the API does not take ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "sent", "message"),
    [
        # the riichi stick stayed on the table: the ron was recorded as if on any other discard
        ("/api/ron", {"discarder": 0, "winners": [{"seat": 1, "han": 3, "fu": 30}], "riichi_discrad": True},
         "unknown field(s) riichi_discrad: known are discarder, winners, riichi_discard"),
        # priced without its dora: 1000 where the hand is worth 2000
        ("/api/ron", {"discarder": 0, "winners": [{"seat": 1, "hand": {"concealed": "234m567p11s345s34p", "win": "2p",
                                                                       "dora": "1m"}}]},
         "unknown field(s) dora in winner 1's hand: known are concealed, win, melds, dora_indicators"),
        ("/api/ron", {"discarder": 0, "winners": [{"seat": 1, "han": 3, "fu": 30}, {"seat": 2, "han": 3, "fu": 30,
                                                                                   "dora": 1}]},
         "unknown field(s) dora in winner 2: known are seat, han, fu, yakuman, hand"),
        ("/api/tsumo", {"seat": 1, "han": 3, "fu": 30, "ippatsu": True},
         "unknown field(s) ippatsu in the winner: known are seat, han, fu, yakuman, hand"),
        ("/api/draw", {"tenpai": [1], "nagshi": [2]}, "unknown field(s) nagshi: known are tenpai, nagashi, dead"),
        ("/api/end", {"reasn": "last train"}, "unknown field(s) reasn: known are reason"),
        ("/api/riichi", {"seat": 1, "points": 1000}, "unknown field(s) points: known are seat"),
        ("/api/penalty", {"seat": 1, "points": 1000, "reason": "late", "at_end": False}, "unknown field(s) at_end"),
        ("/api/adjust", {"amounts": [100, -100, 0, 0], "reason": "x", "seat": 1}, "unknown field(s) seat"),
        ("/api/scan", {"winner": 1, "discarder": 0, "tusmo": True}, "unknown field(s) tusmo"),
        ("/api/furiten", {"seat": 1, "hand": "4466s88s2233z667z", "meld": ["pon:777z"]}, "unknown field(s) meld"),
    ],
)
def test_an_api_field_the_request_does_not_take_is_a_400_naming_it(api, path, sent, message):
    """The command line refuses an unknown option; the API dropped an unknown field and recorded the rest."""
    client, headers, assistant = api
    before = events_of(assistant)
    resp = client.post(path, json=sent, headers=headers)
    assert resp.status_code == 400 and message in resp.get_json()["error"], resp.get_json()
    assert events_of(assistant) == before


def test_a_new_game_with_a_misspelt_preset_field_is_refused_not_started_under_the_default(api):
    """`"rules": "wrc"` started a tenhou game (the device's preset) without a word."""
    client, headers, assistant = api
    first = assistant.game_id()
    resp = client.post("/api/game", json={"players": ["Ann", "Bob", "Cid", "Dee"], "rules": "wrc"}, headers=headers)
    assert resp.status_code == 400 and resp.get_json()["error"] == "unknown field(s) rules: known are players, preset"
    assert assistant.game_id() == first


def test_the_keeper_pages_bodies_still_go_through(api):
    """What the pages send (with `seen`, the game as the page showed it) is every field the API takes."""
    client, headers, assistant = api
    seen = client.get("/api/keeper/state", headers=headers).get_json()["game_version"]
    resp = client.post("/api/ron", json={"discarder": 0, "winners": [
        {"seat": 1, "hand": {"concealed": "234m567p11s345s34p", "win": "2p", "melds": [], "dora_indicators": "1m",
                             "ura_indicators": "", "flags": {"ippatsu": False}}}], "riichi_discard": False,
        "seen": seen}, headers=headers)
    assert resp.status_code == 200, resp.get_json()
    assert events_of(assistant)[-1]["wins"][0]["payment"] == {"ron": 2000}  # pinfu and one dora: 2 han 30 fu
    seen = resp.get_json()["state"]["game_version"]
    assert client.post("/api/tsumo", json={"seat": 2, "han": 2, "fu": 30, "seen": seen},
                       headers=headers).status_code == 200
