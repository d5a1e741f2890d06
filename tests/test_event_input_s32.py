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
