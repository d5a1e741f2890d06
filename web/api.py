"""The JSON API the keeper pages use (and any script may): every write needs the PIN session and CSRF token.

Bad input answers 4xx with `{"error": "reason"}`; a good write answers the new keeper snapshot, so a page
redraws from the reply without a second request.
"""

from __future__ import annotations

import functools
import json
import sys
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from table.errors import InputError
from table.jsonl_input import unique_fields
from web.auth import csrf_token, keeper_required

bp = Blueprint("api", __name__, url_prefix="/api")


def assistant():
    return current_app.extensions["jantaku"]


def body(*known: str) -> dict[str, Any]:
    """The JSON object sent, {} for no body. A body that is not one is refused with what is wrong with it (a script's
    author needs more than "must be JSON" when the Content-Type was right); only a body sent under another
    Content-Type is told to send application/json. With `known`, the fields the request takes: any other is
    refused (`only`)."""
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    if not request.is_json:
        raise InputError("the request body must be JSON (Content-Type: application/json)")
    try:
        # bytes: UTF-8 (a BOM allowed), or UTF-16/32 as the standard library detects them; a field given twice is
        # refused (JSON keeps the last: {"seat": 1, "seat": 2} declared seat 2's riichi)
        data = json.loads(raw, object_pairs_hook=unique_fields)
    except InputError:
        raise
    except UnicodeDecodeError as exc:
        raise InputError(f"the request body is not UTF-8 text (a bad byte at position {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"the request body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                         ) from None
    except RecursionError:
        raise InputError("the request body is nested too deep") from None
    except ValueError:  # the only other one: an integer past Python's digit limit for int()
        raise InputError(f"a number in the request body is too long (over {sys.get_int_max_str_digits()} digits)"
                         ) from None
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object")
    return only(data, known) if known else data


WINNER = ("seat", "han", "fu", "yakuman", "hand")
HAND = ("concealed", "win", "melds", "dora_indicators", "ura_indicators", "flags")


def only(data: dict[str, Any], known: tuple[str, ...], where: str = "") -> dict[str, Any]:
    """`data`, when it has no field but `known`. A field the request does not take was dropped without a word, so a
    misspelt one recorded another game: `riichi_discrad` left the discarder's stick on the table, a hand's `dora`
    priced it without them, `rules` started a game under the device's preset."""
    unknown = sorted(set(data) - set(known))
    if unknown:
        takes = ", ".join(k for k in known if k != "seen")
        raise InputError(f"unknown field(s) {', '.join(unknown)}{where}: known are {takes}")
    return data


def winner_fields(winner: Any, known: tuple[str, ...], where: str) -> None:
    """A winner's fields (a ron's `winners` entry, a tsumo's body) and its hand's, checked by `only`; a winner that is
    no object is left to the game's own message."""
    if isinstance(winner, dict):
        only(winner, known, where)
        if isinstance(winner.get("hand"), dict):
            only(winner["hand"], HAND, f"{where}'s hand")


def need(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise InputError(f"missing field {key!r}")
    return data[key]


def game_write(view):
    """A write that changes the game, or a correction of the hand about to be recorded: with `seen` (the keeper
    snapshot's `game_version` the page showed) it is refused with 409 when the game has changed since, so that two
    phones recording one hand record it once (a correction sent after the other phone recorded the hand would
    otherwise start a new proposal for the next hand, which its confirm then recorded)."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any):
        seen = body().get("seen")
        if seen is not None and not (isinstance(seen, list) and len(seen) == 2
                                     and all(type(n) is int for n in seen)):
            raise InputError("seen must be the game_version the page showed: [game id, log row]")
        with assistant().expecting(seen):
            return view(*args, **kwargs)

    return wrapper


def done(**extra: Any):
    return jsonify(ok=True, **extra, state=assistant().keeper_snapshot())


@bp.get("/keeper/state")
@keeper_required
def keeper_state():
    return jsonify({**assistant().keeper_snapshot(), "csrf_token": csrf_token()})


@bp.post("/game")
@keeper_required
def new_game():
    data = body("players", "preset")
    players = need(data, "players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InputError("players must be a list of four names")
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise InputError("preset must be a name such as tenhou")
    game_id = assistant().start_game(players, preset)
    return done(game_id=game_id)


@bp.post("/riichi")
@keeper_required
@game_write
def riichi():
    assistant().declare_riichi(need(body("seat", "seen"), "seat"))
    return done()


@bp.post("/ron")
@keeper_required
@game_write
def ron():
    data = body("discarder", "winners", "riichi_discard", "seen")
    if isinstance(data.get("winners"), list):
        for number, winner in enumerate(data["winners"], start=1):
            winner_fields(winner, WINNER, f" in winner {number}")
    assistant().record_ron(need(data, "discarder"), need(data, "winners"), data.get("riichi_discard", False))
    return done()


@bp.post("/tsumo")
@keeper_required
@game_write
def tsumo():
    data = body()
    winner_fields(data, (*WINNER, "seen"), " in the winner")
    assistant().record_tsumo(data)
    return done()


@bp.post("/draw")
@keeper_required
@game_write
def draw():
    data = body("tenpai", "nagashi", "dead", "seen")
    assistant().record_draw(need(data, "tenpai"), data.get("nagashi", []), data.get("dead", []))
    return done()


@bp.post("/abortive")
@keeper_required
@game_write
def abortive():
    assistant().record_abortive_draw(need(body("reason", "seen"), "reason"))
    return done()


@bp.post("/chombo")
@keeper_required
@game_write
def chombo():
    assistant().record_chombo(need(body("seat", "seen"), "seat"))
    return done()


@bp.post("/pao")
@keeper_required
@game_write
def pao():
    data = body("winner", "liable", "seen")
    assistant().record_pao(need(data, "winner"), need(data, "liable"))
    return done()


@bp.post("/adjust")
@keeper_required
@game_write
def adjust():
    data = body("amounts", "reason", "seen")
    assistant().record_adjustment(need(data, "amounts"), need(data, "reason"))
    return done()


@bp.post("/penalty")
@keeper_required
@game_write
def penalty():
    data = body("seat", "points", "reason", "seen")
    assistant().record_penalty(need(data, "seat"), need(data, "points"), need(data, "reason"))
    return done()


@bp.post("/end")
@keeper_required
@game_write
def end():
    assistant().end_game(body("reason", "seen").get("reason", "time called"))
    return done()


@bp.post("/undo")
@keeper_required
@game_write
def undo():
    body("seen")
    assistant().undo()
    return done()


@bp.post("/redo")
@keeper_required
@game_write
def redo():
    body("seen")
    assistant().redo()
    return done()


@bp.post("/scan")
@keeper_required
def scan():
    data = body("winner", "discarder", "tsumo", "photo", "riichi_discard")
    proposal = assistant().scan_hand(data.get("winner"), data.get("discarder"), data.get("tsumo"), data.get("photo"),
                                     data.get("riichi_discard"))
    return done(proposal=proposal.to_json())


@bp.put("/proposal")
@keeper_required
@game_write
def correct():
    data = {key: value for key, value in body().items() if key != "seen"}  # game_write's
    proposal = assistant().propose(**data)
    return done(proposal=proposal.to_json())


@bp.post("/proposal/confirm")
@keeper_required
@game_write
def confirm():
    body("seen")
    assistant().confirm_proposal()
    return done()


@bp.delete("/proposal")
@keeper_required
def discard():
    assistant().discard_proposal()
    return done()


@bp.post("/furiten")
@keeper_required
def furiten():
    data = body("seat", "hand", "melds", "discards", "read_pond", "photo")
    result = assistant().check_furiten(need(data, "seat"), data.get("hand"), data.get("melds"), data.get("discards"),
                                       data.get("read_pond", False), data.get("photo"))
    return done(furiten=result)


@bp.get("/games")
@keeper_required
def games():
    return jsonify(games=assistant().games())


@bp.post("/games/<game_id>/resume")
@keeper_required
def resume_game(game_id: str):
    assistant().resume_game(game_id)
    return done()


@bp.get("/history")
@keeper_required
def history():
    return jsonify(assistant().history())


@bp.get("/games/<game_id>/export.json")
@keeper_required
def export_json(game_id: str):
    text = assistant().export(game_id, "json")
    return Response(text, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="jantaku-{game_id}.json"'})


@bp.get("/games/<game_id>/export.csv")
@keeper_required
def export_csv(game_id: str):
    text = assistant().export(game_id, "csv")
    # A byte-order mark first: Excel opens a double-clicked CSV as UTF-8 only with it ("ZoÃ«" without); the
    # CLI's `export --csv` stays without, for scripts.
    return Response("\ufeff" + text, content_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="jantaku-{game_id}.csv"'})


@bp.get("/panel")
@keeper_required
def panel_state():
    panel = current_app.extensions.get("jantaku.panel")
    if panel is None:
        return jsonify(error="no panel is running in this process"), 404
    return jsonify(panel.describe())


@bp.post("/panel/press")
@keeper_required
def panel_press():
    """Press a button of the mock panel (only under the mock pin factory: a real panel has real buttons)."""
    panel = current_app.extensions.get("jantaku.panel")
    if panel is None:
        return jsonify(error="no panel is running in this process"), 404
    if not panel.is_mock:
        return jsonify(error="the panel has real pins: press the real button"), 409
    data = body("button", "hold")
    button = need(data, "button")
    hold = data.get("hold", False)
    if not isinstance(button, str) or not isinstance(hold, bool):
        raise InputError('send {"button": "riichi1" | "scan" | "tsumo" | "ron" | "draw" | "undo", "hold": false}')
    panel.press(button, hold=hold)
    return jsonify(ok=True, panel=panel.describe())
