"""Events that enter a game other than by `jantaku game`'s own flags: an event file (`game replay`), the JSON API,
and logs stored by older versions. What the command line refuses because it would record a wrong game, these
refuse too, with the field named; a stored log still loads."""

from __future__ import annotations

import json

import pytest
from helpers_device import make_assistant
from helpers_game import ok

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


# -- an event file is held to what the command line takes -----------------------------------------------------

RON = {"type": "ron", "discarder": 0, "wins": [{"seat": 1}]}


def ron_with(**win) -> str:
    return json.dumps({**RON, "wins": [{"seat": 1, **win}]})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # all four noten: the dealer lost the deal and nobody was paid, where `game draw` asks who was tenpai
        ('{"type": "draw"}', 'draw needs "tenpai": the seats that were tenpai, [] when all four were noten'),
        # a ron that paid nothing, and one off by a point: the scorer gives neither
        (ron_with(payment={"ron": 0}), "payment ron must be 100 or more, not 0"),
        (ron_with(payment={"ron": 3901}), "payment ron must be in 100s (the smallest stick), not 3,901"),
        (json.dumps({"type": "tsumo", "win": {"seat": 1, "payment": {"tsumo_dealer": 2000, "tsumo_other": 50}}}),
         "payment tsumo_other must be 100 or more, not 50"),
        # priced by the preset as 13 han and 6 yakuman: `game ron --han 99` is refused as a typo
        (ron_with(han=99, fu=30), "han must be at most 13, not 99"),
        (ron_with(yakuman=60), "yakuman must be at most 6, not 60"),
        # kept for the record as "123" and "{'a': 1}"
        (ron_with(han=3, fu=30, hand=123), "a win's hand must be text, not 123"),
        (ron_with(han=3, fu=30, yaku=[{"name": 5, "han": 1}]), "a yaku's name must be text, not 5"),
        (ron_with(han=3, fu=30, yaku=[{"name": "Riichi", "han": 1, "fu": 30}]),
         'yaku must be a list of {"name", "han"} objects, not with fu'),
        (ron_with(han=3, fu=30, payment={"ron": 3900, "limit": 5}), "payment limit must be text, not 5"),
    ],
)
def test_an_event_file_is_refused_where_the_command_line_would_refuse_it(jantaku, tmp_path, line, message):
    code, out, err = replay(jantaku, tmp_path, line)
    assert code == 2 and out == "" and f"events.jsonl:2: {message}" in err, err


def test_a_payment_giving_a_ron_and_a_tsumo_price_is_refused_wherever_it_comes_from(jantaku, tmp_path):
    """A tsumo with {"ron", "tsumo_dealer", "tsumo_other"} was scored on its tsumo price and stored with its ron
    price alone, so the stored game no longer loaded ("Bob's tsumo needs a tsumo payment")."""
    from table.errors import InputError
    from table.events import event_from_json

    both = {"type": "tsumo", "win": {"seat": 1, "payment": {"ron": 8000, "tsumo_dealer": 4000, "tsumo_other": 2000}}}
    code, _, err = replay(jantaku, tmp_path, json.dumps(both))
    assert code == 2 and "payment gives both a ron price and a tsumo price" in err
    with pytest.raises(InputError, match="both a ron price and a tsumo price"):
        event_from_json(both)


@pytest.mark.parametrize(
    ("started_at", "message"),
    [(5, "started_at must be a date and time as text (ISO 8601), not 5"),
     ({"day": 1}, "started_at must be a date and time as text"),
     ("yesterday", "started_at 'yesterday' is not a date and time in ISO 8601")],
)
def test_a_game_start_time_that_is_no_time_is_refused(jantaku, tmp_path, started_at, message):
    path = tmp_path / "events.jsonl"
    path.write_text(json.dumps({**START, "started_at": started_at}) + "\n", encoding="utf-8")
    code, _, err = jantaku("game", "replay", str(path), "--json")
    assert code == 2 and f"events.jsonl:1: {message}" in err, err


def test_what_the_command_line_records_still_replays_from_its_export(jantaku, tmp_path):
    """A kazoe hand is kept with the scorer's 14 han beside its price, an all-noten draw with "tenpai": [], the start
    with its time: the file checks leave an export as it is."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee")
    ok(jantaku, "game", "draw", "--tenpai", "none")
    ok(jantaku, "game", "riichi", "Bob")
    ok(jantaku, "game", "tsumo", "Bob", "--hand", "1122334455667p", "--win", "7p", "--dora", "9p")
    exported = ok(jantaku, "game", "export")
    assert '"han": 14' in exported and '"tenpai": []' in exported and '"started_at": "' in exported
    log = tmp_path / "export.jsonl"
    log.write_text(exported, encoding="utf-8")
    replayed = json.loads(ok(jantaku, "game", "replay", str(log), "--json"))
    assert replayed == {k: v for k, v in json.loads(ok(jantaku, "game", "show", "--json")).items() if k != "game_id"}
    # Bob deals after the draw: his kazoe tsumo is 16000 all, with a honba's 100 each
    assert replayed["points"] == [25000 - 16100, 25000 - 1000 + 48300 + 1000, 25000 - 16100, 25000 - 16100]


def test_a_stored_log_is_not_held_to_the_file_checks(tmp_path):
    """An unpriced 14-han win and a draw without "tenpai" in the database (written by hand, or by a version that
    wrote them) still load: the checks are for a file being replayed, as `check_new`'s are."""
    from table.store import GameStore

    with GameStore(tmp_path / "old.db") as store:
        game = store.new_game(["Ann", "Bob", "Cid", "Dee"], "tenhou")
        with store._db:
            for seq, event in enumerate(({"type": "draw"},
                                         {"type": "ron", "discarder": 0, "wins": [{"seat": 1, "han": 14}]}), start=2):
                store._db.execute("INSERT INTO log (game_id, seq, type, payload, recorded_at) "
                                  "VALUES (?, ?, ?, ?, 'then')", (game, seq, event["type"], json.dumps(event)))
    with GameStore(tmp_path / "old.db") as store:
        state = store.state(game)
        assert state.dealer == 1 and state.points == (25000 - 48300, 25000 + 48300, 25000, 25000) and state.over
