"""The device's one doorway into the rules (`table/`): events built, hands scored, state turned into page data.

Everything the assistant needs from the game keeping and the scoring engine goes through here, so the
web pages and the panel see plain JSON-ready dicts, and a missing or renamed rules module shows up as one
clear message on the page instead of a crash.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from table.errors import InputError
from table.game import SYSTEM_TITLES, VALUE_UNITS, WIND_NAMES, hand_rows, void_riichi
from table.names import isolate
from table.tiles import WIND_LETTERS

KIND_TITLES = {"ron": "Ron", "tsumo": "Tsumo", "draw": "Exhaustive draw", "chombo": "Chombo",
               "abortive": "Abortive draw", "abortive_draw": "Abortive draw"}


def unavailable() -> str | None:
    """Why game keeping cannot run on this build (a rules module missing), or None when it can."""
    for name in ("table.events", "table.game", "table.store", "table.presets"):
        try:
            importlib.import_module(name)
        except ImportError as exc:
            return f"{name} cannot be imported ({exc})"
    from table.presets import PRESETS

    if not PRESETS:
        return "no rule preset is defined yet (table.hand_rules / table.game_rules are empty)"
    return None


def scoring_unavailable() -> str | None:
    for name in ("table.hand", "table.scoring", "table.waits"):
        try:
            importlib.import_module(name)
        except ImportError as exc:
            return f"{name} cannot be imported ({exc})"
    return None


def open_store(path):
    from table.store import GameStore

    return GameStore(path)


def preset_names() -> list[str]:
    """The presets the table device keeps: riichi only (its pages price hands in han and fu, read riichi
    sticks, and score scans with the riichi engine); Zung Jung and MCR games are kept with `jantaku game`."""
    from table.presets import PRESETS

    return [name for name, preset in PRESETS.items() if preset.hand.system == "riichi"]


def preset_title(name: str) -> str:
    from table.presets import get_preset

    try:
        return get_preset(name).title
    except InputError:
        return name


def current_game(store) -> int | None:
    return store.current_game()


def new_game(store, names: list[str], preset: str) -> int:
    from table.presets import get_preset

    chosen = get_preset(preset)  # the friendly "unknown rules ... choose one of" message
    if chosen.hand.system != "riichi":
        raise InputError(f"the table device keeps riichi games only; {chosen.title} is {chosen.hand.system}: keep it "
                         f"with `jantaku game`, or choose one of {', '.join(preset_names())}")
    return store.new_game(names, chosen.name)


def preset_of(store, game_id: int) -> str:
    return store.state(game_id).preset


def append(store, game_id: int, event_json: dict[str, Any], expect=None):
    from table.events import event_from_json

    return store.append(game_id, event_from_json(event_json), expect=expect)


def undo(store, game_id: int, expect=None):
    return store.undo(game_id, expect=expect)


def redo(store, game_id: int, expect=None):
    return store.redo(game_id, expect=expect)


# ---- events as JSON (the documented schema of table.events) ----------------------------------------------


def riichi_event(seat: int) -> dict[str, Any]:
    return {"type": "riichi", "seat": seat}


def ron_event(discarder: int, wins: list[dict[str, Any]], riichi_discard: bool = False) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "ron", "discarder": discarder, "wins": wins}
    if riichi_discard:
        event["riichi_discard"] = True
    return event


def tsumo_event(win: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tsumo", "win": win}


def draw_event(tenpai: list[int], nagashi: list[int], dead: list[int] | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "draw", "tenpai": tenpai}
    if nagashi:
        event["nagashi"] = nagashi
    if dead:
        event["dead"] = dead
    return event


def abortive_event(reason: str) -> dict[str, Any]:
    """The reducer checks the reason against the preset (unknown reasons and draws the preset lacks)."""
    return {"type": "abortive_draw", "reason": reason}


def chombo_event(seat: int) -> dict[str, Any]:
    return {"type": "chombo", "seat": seat}


def pao_event(winner: int, liable: int) -> dict[str, Any]:
    return {"type": "pao", "winner": winner, "liable": liable}


def penalty_event(seat: int, points: int, reason: str) -> dict[str, Any]:
    return {"type": "penalty", "seat": seat, "points": points, "reason": reason}


def adjust_event(amounts: list[int], reason: str) -> dict[str, Any]:
    return {"type": "adjustment", "amounts": amounts, "reason": reason}


def end_event(reason: str) -> dict[str, Any]:
    return {"type": "game_ended", "reason": reason or "time called"}


# ---- scoring --------------------------------------------------------------------------------------------


def hand_text(concealed: str, win: str, melds: list[str]) -> str:
    """The hand as people write it: `456s55p44z555z +0p added-kan:9999m`."""
    return " ".join(p for p in (concealed, f"+{win}" if win else "", *melds) if p)


def require_riichi(preset: str) -> None:
    """The device scores riichi hands only: a Zung Jung or MCR game's wins are recorded with `jantaku game`."""
    system = system_of(preset)
    if system != "riichi":
        title = SYSTEM_TITLES.get(system, system)
        article = "an" if title[0] in "AEIMU" else "a"
        raise InputError(f"this is {article} {title} game, whose hands the table device does not score: record "
                         f"this game's wins with `jantaku game ron/tsumo ...` (draws, adjustments, the end and undo "
                         f"work here)")


def score_hand_json(hand: dict[str, Any], *, winner: int, tsumo: bool, state, preset: str) -> dict[str, Any]:
    """Score a hand for `winner` in the current hand of `state`; the ScoreResult's JSON (valid or not).

    Seat wind, round wind, riichi, honba and sticks come from the game; the flags a photo cannot show
    (ippatsu, rinshan, haitei...) from `hand["flags"]`.
    """
    why = scoring_unavailable()
    if why:
        raise InputError(f"the scoring engine is not available: {why}")
    from table.hand import parse_hand
    from table.presets import get_preset
    from table.scoring import Situation, score_hand
    from table.tiles import parse_tiles

    require_riichi(preset)
    concealed = str(hand.get("concealed") or "")
    win = str(hand.get("win") or "")
    if not win:
        tiles = parse_tiles(concealed)
        if not tiles:
            raise InputError("enter the tiles of the hand")
        raise InputError("which tile won? enter the winning tile")
    parsed = parse_hand(concealed, win, list(hand.get("melds") or []))
    flags = {k: bool(v) for k, v in (hand.get("flags") or {}).items() if k != "riichi"}
    if state is not None:  # the game knows the winds, the riichi, the honba and the sticks on the table
        game = {"riichi": bool(state.riichi[winner]) and not flags.get("double_riichi"),
                "seat_wind": state.seat_winds[winner], "round_wind": state.round_wind, "honba": state.honba,
                "riichi_sticks": state.riichi_sticks}
    else:
        game = {"seat_wind": winner % 4}
    situation = Situation(
        tsumo=tsumo,
        dora_indicators=tuple(parse_tiles(str(hand.get("dora_indicators") or ""))),
        ura_indicators=tuple(parse_tiles(str(hand.get("ura_indicators") or ""))),
        **game, **flags,
    )
    return score_hand(parsed, situation, get_preset(preset)).to_json()


def score_proposal(proposal, state, preset: str) -> dict[str, Any]:
    if proposal.riichi_discard and state is not None:  # that riichi does not stand: its stick is not won
        state = void_riichi(state, proposal.discarder)
    hand = {"concealed": proposal.concealed, "win": proposal.win, "melds": proposal.melds,
            "dora_indicators": proposal.dora_indicators, "ura_indicators": proposal.ura_indicators,
            "flags": proposal.flags}
    return score_hand_json(hand, winner=proposal.winner, tsumo=proposal.tsumo, state=state, preset=preset)


def with_set_red_fives(concealed: str, win: str, dora: str, melds: list[str], preset: str
                       ) -> tuple[str, str, str, list[str], list[str]]:
    """A reading's tiles with red fives as the preset counts them: those its set does not hold made plain
    (`table.hand.plain_red_fives`), those a closed kan of fives hides named (`with_hidden_red_fives`); and the
    notes. Text that does not parse is kept as it is, for the scorekeeper to correct."""
    from table.hand import Meld, parse_meld, plain_red_fives
    from table.presets import get_preset
    from table.tiles import parse_tile, parse_tiles, to_mpsz

    def names(text: str) -> tuple[str, ...]:
        try:
            return tuple(map(str, parse_tiles(text)))
        except InputError:
            return ()

    parsed: list[Meld | None] = []
    for text in melds:
        try:
            parsed.append(parse_meld(text))
        except InputError:
            parsed.append(None)
    texts = [concealed, win, *melds, dora]  # the dora indicators last: an indicator's red five is worth nothing
    given = [names(concealed), names(win), *(tuple(map(str, m.tiles)) if m else () for m in parsed), names(dora)]
    groups, notes = plain_red_fives(given, get_preset(preset).hand)
    for i, (group, was, meld) in enumerate(zip(groups, given, [None, None, *parsed, None], strict=True)):
        if group != was:  # only the texts whose tiles changed are written anew
            tiles = tuple(map(parse_tile, group))
            texts[i] = str(Meld(meld.kind, tiles, meld.source)) if meld else to_mpsz(tiles, sort=False)
    concealed, win, *melds, dora = texts
    melds, hidden = with_hidden_red_fives(melds, preset)
    return concealed, win, dora, melds, [*notes, *hidden]


def with_hidden_red_fives(melds: list[str], preset: str) -> tuple[list[str], list[str]]:
    """Melds read from a photo with the red fives a closed kan of fives hides face down named under the preset's
    set (`table.hand.name_hidden_red_fives`), and a note for each; text that does not parse is kept as it is."""
    from table.hand import name_hidden_red_fives, parse_meld
    from table.presets import get_preset

    red_fives = get_preset(preset).hand.red_fives
    out, notes = [], []
    for text in melds:
        try:
            meld = parse_meld(text)
        except InputError:
            out.append(text)
            continue
        named = name_hidden_red_fives(meld, red_fives)
        if named != meld:
            notes.append(f"the closed kan {text.split(':')[1]} holds a red five face down under these rules: "
                         f"read as {str(named).split(':')[1]} (aka dora); fix it if the set has none")
            text = str(named)
        out.append(text)
    return out, notes


def win_from_score(seat: int, score: dict[str, Any], hand: str) -> dict[str, Any]:
    """The event's Win from a valid ScoreResult JSON: its price is stored with the hand (see table.events)."""
    win: dict[str, Any] = {"seat": seat, "payment": dict(score["payment"]), "hand": hand,
                           "yaku": [{"name": y["name"], "han": y["han"]} for y in score.get("yaku", [])]}
    if score.get("limit"):
        win["payment"]["limit"] = score["limit"]
    if score.get("yakuman"):
        win["yakuman"] = int(score["yakuman"])
    else:
        win["han"], win["fu"] = int(score["han"]), int(score["fu"])
    return win


def waiting_hand(concealed: str, win: str, melds: list[str]) -> tuple[str, str]:
    """The waiting hand in a photo's reading, and a line saying it was read. A photo of a won hand shows the
    winning tile set apart: when the concealed tiles are a whole waiting hand without it, it is left out (the
    check is then of the hand that waited for it); text that does not parse is kept whole, for the check to name."""
    from table.tiles import parse_tiles

    hand = concealed + win
    if not hand:
        return "", ""
    try:
        whole = win and len(parse_tiles(concealed)) == 13 - 3 * len(melds)
    except InputError:
        whole = False
    if whole:
        return concealed, f"hand read from the photo; its winning tile {win}, set apart, is left out"
    return hand, "hand read from the photo"


def furiten_check(hand: str, melds: list[str], discards: str, preset: str) -> dict[str, Any]:
    """Discard furiten of a waiting hand, its red fives counted against the preset's set (as `jantaku waits`)."""
    why = scoring_unavailable()
    if why:
        raise InputError(f"the furiten check is not available: {why}")
    from table.hand import parse_meld
    from table.presets import get_preset
    from table.tiles import parse_tiles, to_mpsz
    from table.waits import furiten, waits

    rules = get_preset(preset).hand
    if rules.system != "riichi":  # as `jantaku waits --discards` says it
        raise InputError(f"this game is {SYSTEM_TITLES[rules.system]}, which has no furiten (the club's text: \"no "
                         "Furiten rules are in effect\"; a discard win there is always allowed)")
    tiles = parse_tiles(hand)
    meld_list = [parse_meld(m) for m in melds]
    need = 13 - 3 * len(meld_list)
    if len(tiles) != need:
        raise InputError(f"a waiting hand has {need} tiles besides its {len(meld_list)} meld(s), not {len(tiles)}")
    result = furiten(tiles, meld_list, parse_tiles(discards), rules)
    from table.tiles import Tile

    def code(kind: int) -> str:  # MPSZ, as `jantaku waits --json` names tiles
        return to_mpsz([Tile(kind)])

    return {"furiten": result.furiten, "reason": result.reason, "tiles": [code(k) for k in result.tiles],
            "waits": [code(w.tile_kind) for w in waits(tiles, meld_list, rules)]}


# ---- state as page data ---------------------------------------------------------------------------------


def system_of(preset: str) -> str:
    """The preset's scoring system ("riichi", "zungjung", "mcr"); riichi when the preset is unknown here."""
    from table.presets import PRESETS

    chosen = PRESETS.get(preset)
    return chosen.hand.system if chosen is not None else "riichi"


def _win_view(win, system: str, names) -> dict[str, Any]:
    payment = win.payment.to_json() if win.payment is not None else None
    limit = win.payment.limit if win.payment is not None else ""
    view = {
        "seat": win.seat, "name": names[win.seat], "han": win.han or None, "fu": win.fu or None,
        "yakuman": win.yakuman, "yaku": [{"name": n, "han": h} for n, h in win.yaku], "limit": limit or None,
        "payment": payment, "hand": win.hand,
    }
    if system != "riichi":  # a Zung Jung or MCR win: its value and patterns (the pages show them as the yaku)
        view["value"] = getattr(win, "value", 0) or None
        view["unit"] = VALUE_UNITS.get(system, "points")
        view["patterns"] = [{"name": n, "points": v} for n, v in getattr(win, "patterns", ())]
    return view


def _last_view(hand, names, game_id: int, links: dict, photos: Any, system: str = "riichi") -> dict[str, Any]:
    kind = hand.kind
    shown, names = names, [isolate(n) for n in names]  # the lines below are text: a right-to-left name isolated
    if kind == "ron":
        winners = ", ".join(names[s] for s in hand.winners)
        title = f"{winners} won by ron from {names[hand.discarder]}"
    elif kind == "tsumo":
        title = f"{names[hand.winners[0]]} won by tsumo"
    elif kind == "draw":
        title = "Exhaustive draw" if system == "riichi" else "Draw"
    elif kind == "chombo":
        title = f"Chombo by {names[hand.offender]}"
    else:
        title = f"Abortive draw ({hand.reason})"
    detail = ""
    if kind == "draw" and system == "riichi":  # Zung Jung and MCR have no tenpai at a draw
        detail = "Tenpai: " + (", ".join(names[s] for s in hand.tenpai) or "nobody")
        if hand.nagashi:
            detail += "; nagashi mangan: " + ", ".join(names[s] for s in hand.nagashi)
        if hand.dead:
            detail += "; dead hand: " + ", ".join(names[s] for s in hand.dead)
    if hand.bumped:
        head = "Head bump" if system == "riichi" else "Interception"  # the CLI's words (`LastHand.summary`)
        detail = f"{head} over " + ", ".join(names[s] for s in hand.bumped)
    first = hand.first_discarder
    if kind == "ron" and first is not None and first != hand.discarder:
        who = "nobody" if first in hand.winners else names[first]
        detail += ("; " if detail else "") + f"Same-round immunity: {who} responsible"
    if hand.riichi_discard:
        detail += ("; " if detail else "") + f"on {names[hand.discarder]}'s riichi tile: no riichi, the stick goes back"
    scoring = [w for w in hand.wins if w.seat in hand.winners] if kind in ("ron", "tsumo") else []
    view: dict[str, Any] = {
        "kind": kind, "title": f"{hand.where}: {title}", "detail": detail,
        "winners": [_win_view(w, system, shown) for w in scoring], "deltas": list(hand.deltas),
        "changes": list(hand.changes),
        "discarder": hand.discarder, "photo": None,
    }
    scan = links.get((game_id, hand.number))
    if scan and scoring and photos is not None:
        meta = photos(scan)
        if meta and meta.get("hand") == scoring[0].hand:
            view["photo"] = {"url": f"/photo/{scan}.jpg", "image": meta.get("image") or {},
                             "tiles": meta.get("tiles") or []}
    return view


def _standing_view(st) -> dict[str, Any]:
    """A seat's final result as the pages show it: `Standing.to_json` with the final score as `points`."""
    view = st.to_json()
    view["points"] = view.pop("raw")
    return view


def game_view(store, game_id: int, links: dict, photos=None) -> dict[str, Any]:
    """The scoreboard's data for one game (the `game` object of /api/state, documented in the README)."""
    state = store.state(game_id)
    names = state.players
    winds = state.seat_winds
    seats = [
        {"seat": s, "name": names[s], "points": state.points[s], "wind": WIND_LETTERS[winds[s]],
         "wind_name": WIND_NAMES[winds[s]], "dealer": s == state.dealer, "riichi": bool(state.riichi[s]),
         "penalty": state.penalties[s]}
        for s in range(4)
    ]
    system = system_of(state.preset)
    return {
        "id": game_id,
        "preset": state.preset,
        "system": system,
        "system_title": SYSTEM_TITLES[system],
        "value_unit": VALUE_UNITS.get(system, "points"),
        "preset_title": preset_title(state.preset),
        "round": state.round_name,
        "round_wind": WIND_NAMES[state.round_wind],
        "hand_number": state.hand_number,
        "honba": state.honba,
        "riichi_sticks": state.riichi_sticks,
        "counters": state.rules.counts_honba,
        "dealer": state.dealer,
        "seats": seats,
        "hands_played": state.hands_played,
        "over": state.over,
        "over_reason": state.over_reason or "",
        "return_points": state.rules.return_points,
        "unit": state.rules.unit,
        "standings": [_standing_view(st) for st in state.standings],
        "last": _adjustment_view(state.adjustment) if state.adjustment else
        None if state.last_hand is None else _last_view(state.last_hand, names, game_id, links, photos, system),
    }


def _adjustment_view(adjustment: tuple[tuple[int, ...], str]) -> dict[str, Any]:
    """An adjustment since the last hand, shown as the last thing recorded: the table sees why points moved."""
    amounts, reason = adjustment
    return {"kind": "adjustment", "title": f"Adjustment: {reason}", "detail": "", "winners": [],
            "deltas": list(amounts), "changes": list(amounts), "discarder": None, "photo": None}


def history_view(store, game_id: int) -> dict[str, Any]:
    """Points after every row of the game's record (the chart) and the rows, numbered as in the CSV export."""
    states = store.history(game_id)
    names = [isolate(n) for n in states[0].players]
    rows = hand_rows(states)
    return {"game": game_id, "names": list(states[0].players),
            "points": [list(states[0].points), *(list(row.state.points) for row in rows)],
            "hands": [{"number": row.hand.number if row.hand else None, "round": row.round_name,
                       "title": row.result(names), "changes": list(row.changes), "points": list(row.state.points)}
                      for row in rows]}


def games_view(store) -> list[dict[str, Any]]:
    return [g.to_json() for g in store.games()]


def export(store, game_id: int, kind: str) -> str:
    if kind == "json":
        return json.dumps(store.export_json(game_id), indent=1)
    return store.export_csv(game_id)
