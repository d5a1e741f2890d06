"""`jantaku game ...`: keep the score of a whole game from the shell, and `jantaku bench game`.

Every command acts on the newest game in the database (`--game ID` picks another) and prints the
score after it. Seats can be named by number (0-3, in the order the players were given), by player
name, or by the current seat wind (E S W N, east ... north).

Zung Jung and MCR games (`--rules zungjung|mcr`) use the same commands: a win is the tiles (scored on
the spot by `table.zungjung` / `table.mcr`, as `jantaku score --system ...` does) or its value
(`--points N` for Zung Jung, `--fans N` for MCR); riichi-only commands and options are refused.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

from table.cli_options import Once as _Once
from table.errors import InputError
from table.game_rules import ABORTIVE_REASONS
from table.names import bare_key, isolate, name_key, tidy
from table.tiles import WIND_WORDS

# -- per-winner options ---------------------------------------------------------------------------------


class _WinnerAction(argparse.Action):
    """`--winner SEAT` opens a new winner; the hand options after it belong to that winner."""

    def __call__(self, parser, namespace, values, option_string=None):
        winners = list(getattr(namespace, "winners", None) or [])
        winners.append({"seat": values})
        namespace.winners = winners


class _SeatList(argparse.Action):
    """Seats, comma-separated; the option given again adds to them (`--tenpai Ann --tenpai Bob,Cid` is all three)."""

    def __call__(self, parser, namespace, values, option_string=None):
        current = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{current},{values}" if current else values)


class _WinOption(argparse.Action):
    """A hand option (`--han`, `--hand`, `--dora`, `--ippatsu` ...) for the latest `--winner`, or for all."""

    def __init__(self, option_strings, dest, repeat=False, **kwargs):
        self.repeat = repeat
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        winners = getattr(namespace, "winners", None)
        if winners:
            target = winners[-1]
        else:
            target = dict(getattr(namespace, "win_defaults", None) or {})
            namespace.win_defaults = target
        value = self.const if self.nargs == 0 else values
        if self.repeat:
            target[self.dest] = [*target.get(self.dest, []), value]
        elif self.dest in target and self.nargs != 0:
            parser.error(f"{option_string} is given twice for the same {'winner' if winners else 'hand'}: "
                         "give it once")
        else:
            target[self.dest] = value


_OTHER_KIND = {  # a situation flag of the other kind of win: where it belongs, and the flag meant instead
    "--rinshan": "a win by self-draw on a kan's replacement tile: record it with `game tsumo`; a ron on a kan's "
                 "added tile is --chankan",
    "--haitei": "a win by self-draw: record it with `game tsumo`; a ron on the last discard is --houtei",
    "--tenhou": "the dealer's win by self-draw on the first draw: record it with `game tsumo`; a ron on a "
                "first-turn discard is --renhou",
    "--chankan": "a win on another player's kan tile (a ron): record it with `game ron`; a self-draw on the "
                 "replacement tile is --rinshan",
    "--houtei": "a win on the last discard (a ron): record it with `game ron`; a self-draw of the last tile is "
                "--haitei",
    "--renhou": "a win on a first-turn discard (a ron): record it with `game ron`; a self-draw on the first draw "
                "is --tenhou (dealer) or --chiihou",
}


class _OtherKindFlag(argparse.Action):
    """A flag of the other kind of win (`ron --haitei`), refused with the command and flag meant: argparse alone
    said only "unrecognized arguments"."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"{option_string} is {_OTHER_KIND[option_string]}")


def _add_hand_options(parser: argparse.ArgumentParser, *, tsumo: bool) -> None:
    group = parser.add_argument_group("the hand: han/fu/yakuman (riichi), --points (Zung Jung), --fans (MCR), "
                                      "or the tiles (scored on the spot)")
    group.add_argument("--han", type=int, action=_WinOption, help="han of the hand (with --fu)")
    group.add_argument("--fu", type=int, action=_WinOption, help="fu of the hand (below 5 han)")
    group.add_argument("--yakuman", type=int, action=_WinOption, help="number of yakuman (1, or 2 for a double)")
    group.add_argument("--hand", action=_WinOption, metavar="TILES",
                       help="concealed tiles without the winning tile, e.g. 234m567p11s345s")
    group.add_argument("--win", action=_WinOption, metavar="TILE", help="the winning tile, e.g. 4s")
    group.add_argument("--meld", action=_WinOption, repeat=True, metavar="KIND:TILES",
                       help="a called meld, e.g. pon:777z (repeatable)")
    group.add_argument("--dora", action=_WinOption, repeat=True, metavar="TILES", help="dora indicator(s)")
    group.add_argument("--ura", action=_WinOption, repeat=True, metavar="TILES", help="ura dora indicator(s)")
    group.add_argument("--points", type=int, action=_WinOption, help="Zung Jung: the hand's value in points")
    group.add_argument("--fans", type=int, action=_WinOption, help="MCR: the hand's value in fan, flowers included")
    group.add_argument("--flowers", action=_WinOption, metavar="TILES",
                       help="Zung Jung / MCR: declared flowers 1f-4f and seasons 1g-4g (with the tiles)")
    group.add_argument("--last-of-kind", action=_WinOption, nargs=0, const=True,
                       help="MCR 58 Last Tile: the winning tile is the last of its kind")
    flags = ["--ippatsu", "--double-riichi"]
    flags += ["--rinshan", "--haitei", "--tenhou", "--chiihou"] if tsumo else ["--chankan", "--houtei", "--renhou",
                                                                                "--chiihou"]
    for flag in flags:
        group.add_argument(flag, action=_WinOption, nargs=0, const=True, help=argparse.SUPPRESS)
    for flag in sorted(_OTHER_KIND.keys() - set(flags)):
        group.add_argument(flag, action=_OtherKindFlag)
    systems = ("--rinshan as out on the replacement tile, --haitei as the last tile, --tenhou as the blessing of "
               "heaven" if tsumo else "--chankan as robbing the quad, --houtei as the last tile, --renhou (or "
               "--chiihou) as Zung Jung's blessing of earth (a win on East's first discard)")
    group.description = ("Situation flags: " + " ".join(flags) + ". Riichi comes from the game (declared seats). "
                         f"Zung Jung / MCR read {systems}.")


# -- registration ---------------------------------------------------------------------------------------


def register(commands, bench) -> None:
    def where(parser: argparse.ArgumentParser, default: object, before: str = "") -> None:
        """--db and --game, before the action (kept apart as `db_before`, `game_before`) or after it: given in both
        places, or twice in one, they are refused (`_where`), as every other one-value option is."""
        parser.add_argument("--db", type=Path, default=default, action=_Once, dest=f"db{before}",
                            help="game database (default: $JANTAKU_DB, else $XDG_DATA_HOME/jantaku/jantaku.db, "
                                 "else ~/.local/share/jantaku/jantaku.db)")
        parser.add_argument("--game", type=int, default=default, action=_Once, dest=f"game{before}",
                            help="game id (default: the current game, the newest unless an older one was resumed)")

    common = argparse.ArgumentParser(add_help=False)
    where(common, argparse.SUPPRESS)
    common.add_argument("--json", action="store_true",
                        help="print JSON: the state (export: the whole game; list: the games)")

    game = commands.add_parser("game", help="keep the score of a whole game")
    where(game, None, "_before")
    sub = game.add_subparsers(dest="game_command", required=True, metavar="ACTION")

    p = sub.add_parser("new", parents=[common], help="start a game")
    p.add_argument("--players", action=_Once, required=True,
                   help="four names in seat order, first dealer first: A,B,C,D")
    p.add_argument("--rules", action=_Once, default="tenhou", help="rule preset (default tenhou)")
    p.set_defaults(func=_cmd_new)

    p = sub.add_parser("riichi", parents=[common], help="a seat declares riichi (1000 on the table)")
    p.add_argument("seat")
    p.set_defaults(func=_cmd_riichi)

    p = sub.add_parser("ron", parents=[common], help="win(s) on a discard",
                       description="One --winner per winner, each followed by its hand options. "
                                   "Options before the first --winner apply to every winner.")
    p.add_argument("--from", dest="discarder", action=_Once, required=True, metavar="SEAT", help="who discarded")
    p.add_argument("--winner", action=_WinnerAction, required=True, metavar="SEAT")
    p.add_argument("--first-from", dest="first_discarder", action=_Once, metavar="SEAT",
                   help="Zung Jung same-round immunity: who first discarded the winning tile since the winner's "
                        "last discard (they pay instead of the discarder; if that was the winner, all pay the same; "
                        "moot under the uniform payoff, where all always pay the same)")
    p.add_argument("--riichi-discard", action="store_true",
                   help="the winning tile was the discarder's riichi declaration tile: that riichi does not stand "
                        "and its stick goes back (record the riichi as usual before)")
    _add_hand_options(p, tsumo=False)
    p.set_defaults(func=_cmd_ron, winners=None, win_defaults=None)

    p = sub.add_parser("tsumo", parents=[common], help="a self-drawn win")
    p.add_argument("seat")
    _add_hand_options(p, tsumo=True)
    p.set_defaults(func=_cmd_tsumo, winners=None, win_defaults=None)

    p = sub.add_parser("draw", parents=[common], help="exhaustive draw (wall ran out)")
    p.add_argument("--tenpai", action=_SeatList,
                   help="tenpai seats, comma-separated (none: noten all round; needed in riichi games; repeatable)")
    p.add_argument("--nagashi", action=_SeatList, default="", help="nagashi mangan seats, comma-separated")
    p.add_argument("--dead", action=_SeatList, default="",
                   help="seats whose hand was declared dead (noten; a riichi among them pays the noten penalty, "
                        "no chombo)")
    p.set_defaults(func=_cmd_draw)

    p = sub.add_parser("abort", parents=[common], help="abortive draw")
    p.add_argument("reason", choices=ABORTIVE_REASONS)
    p.set_defaults(func=_cmd_abort)

    p = sub.add_parser("chombo", parents=[common], help="a seat commits a chombo")
    p.add_argument("seat")
    p.set_defaults(func=_cmd_chombo)

    p = sub.add_parser("penalty", parents=[common],
                       help="take POINTS off SEAT's final result for a foul that is no hand (late, a drink on the "
                            "table); nobody is paid; also once the game is over")
    p.add_argument("seat")
    p.add_argument("points", help="the points taken off, e.g. 10000 (-10000 means the same)")
    p.add_argument("--reason", action=_Once, required=True)
    p.set_defaults(func=_cmd_penalty)

    p = sub.add_parser("pao", parents=[common], help="LIABLE is liable for WINNER's yakuman this hand")
    p.add_argument("winner")
    p.add_argument("liable")
    p.set_defaults(func=_cmd_pao)

    p = sub.add_parser("adjust", parents=[common], help="move points by hand: SEAT=AMOUNT ... summing to zero")
    p.add_argument("amounts", nargs="+", metavar="SEAT=AMOUNT")
    p.add_argument("--reason", action=_Once, required=True)
    p.set_defaults(func=_cmd_adjust)

    p = sub.add_parser("end", parents=[common], help="end the game now (time called)")
    p.add_argument("--reason", action=_Once, default="time called")
    p.set_defaults(func=_cmd_end)

    for name, helptext in (("undo", "take back the latest event"), ("redo", "put back what undo took")):
        p = sub.add_parser(name, parents=[common], help=helptext)
        p.set_defaults(func=_cmd_undo if name == "undo" else _cmd_redo)

    p = sub.add_parser("show", parents=[common], help="the score now")
    p.set_defaults(func=_cmd_show)

    p = sub.add_parser("export", parents=[common], help="the events as JSON lines (replayable), or --csv / --json",
                       description="Without options: the events in effect, one JSON object per line (what `game "
                       "replay` reads). --json: the whole game as one JSON object (game_id, events, log, state, "
                       "hands). "
                       "--csv: one row per hand, then the standings once the game is over.")
    p.add_argument("--csv", action="store_true", help="one row per hand with the score after it")
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser("replay", help="fold a file of events (one JSON object per line) and print the state")
    p.add_argument("file", type=Path)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("list", parents=[common], help="the games in the database (* the current one)")
    p.set_defaults(func=_cmd_list)

    p = sub.add_parser("resume", parents=[common], help="make an older game the current one again",
                       description="Make GAME the current game again: the one commands without --game, the table "
                                   "device's pages and its panel act on, until a newer game starts (a new game "
                                   "started by mistake, or a game continued another night). No log changes.")
    p.add_argument("resume", type=int, metavar="GAME", help="the game's id (see `game list`)")
    p.set_defaults(func=_cmd_resume)

    b = bench.add_parser("game", help="event log: durable appends per second, replay time of a long log")
    b.add_argument("--appends", type=int, default=300, help="events to append with full durability")
    b.add_argument("--events", type=int, default=10000, help="length of the log to replay")
    b.add_argument("--evening", type=int, default=300, help="events of the game rebuilt from the database file")
    b.add_argument("--dir", type=Path, default=None, help="where to put the scratch database (default: a temp dir)")
    b.set_defaults(func=_cmd_bench)


# -- helpers --------------------------------------------------------------------------------------------


def _where(args, name: str):
    """--db or --game, from before the action or after it; both given is refused, not one quietly dropped."""
    before, after = getattr(args, f"{name}_before", None), getattr(args, name, None)
    if before is not None and after is not None:
        raise InputError(f"--{name} is given twice (before and after the action): give it once")
    return after if after is not None else before


def _db_path(args) -> Path:
    from table.store import default_db_path

    return _where(args, "db") or default_db_path()


def _store(args, *, create: bool = False):
    """The game database; only `game new` makes one, so a mistyped --db is reported, not created empty."""
    from table.store import GameStore

    path = _db_path(args)
    if not create and not path.exists():
        raise InputError(f"no game yet: there is no game database at {path}; start a game with "
                         "`jantaku game new --players A,B,C,D`")
    return GameStore(path)


def _game_id(store, args) -> int:
    game = _where(args, "game")
    if game is not None:
        return int(game)
    current = store.current_game()
    if current is None:
        raise InputError("no game yet: start one with `jantaku game new --players A,B,C,D`")
    return current


def resolve_seat(state, text: str) -> int:
    """A seat from "0".."3", a player's name (as `table.names.name_key` compares them: any case, accents
    composed or not, full-width or not), or the current seat wind ("E", "south"). A name wins over a wind word,
    so a player called Nan is found by it (a new game refuses names that are English wind words or 0-3)."""
    word = tidy(str(text))
    if word in ("0", "1", "2", "3"):
        return int(word)
    for seat, name in enumerate(state.players):  # an exact match first: two names in an old game may share a key
        if name.casefold() == word.casefold():
            return seat
    for key in (name_key, bare_key):  # as typed, then without accents (jose for José)
        matches = [seat for seat, name in enumerate(state.players) if key(name) == key(word)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise InputError(f"{text!r} could be {' or '.join(state.players[s] for s in matches)}: use the seat "
                             "number (0-3)")
    wind = WIND_WORDS.get(word.capitalize())
    if wind is not None:
        return state.seat_winds.index(wind)
    raise InputError(f"unknown seat {text!r}: use 0-3, a player's name ({', '.join(state.players)}) or E/S/W/N")


def _seat_list(state, text: str) -> tuple[int, ...]:
    """Seats separated by commas; a name may hold spaces ("Mary Ann,Bob"), and an item that is no name as a
    whole is read as names separated by spaces ("Bob Cid")."""
    items = [tidy(w) for w in text.split(",") if w.strip()]
    if len(items) == 1 and items[0].lower() == "none":
        return ()
    seats = []
    for item in items:
        try:
            seats.append(resolve_seat(state, item))
        except InputError:
            if " " not in item:
                raise
            try:
                seats.extend(resolve_seat(state, w) for w in item.split())
            except InputError:
                raise InputError(f"unknown seat {item!r}: use 0-3, a player's name ({', '.join(state.players)}) "
                                 "or E/S/W/N, separated by commas") from None
    if len(set(seats)) != len(seats):
        raise InputError(f"a seat is listed twice in {text!r}")
    return tuple(sorted(seats))


def _build_win(state, seat: int, options: dict[str, Any], *, tsumo: bool, discarder: int | None = None):
    """A Win from han/fu/yakuman or from tiles scored by the engine with the game's winds and riichi."""
    from table.events import HandValue, Win

    name = state.players[seat]
    if state.rules.system != "riichi":
        return _build_system_win(state, seat, options, tsumo=tsumo, discarder=discarder)
    for option in ("points", "fans", "flowers", "last_of_kind"):
        if options.get(option) is not None:
            flag = "--" + option.replace("_", "-")
            raise InputError(f"{name}: {flag} is for Zung Jung or MCR games; the {state.preset} rules are riichi")
    if options.get("chiihou") and not tsumo:  # Zung Jung reads it as the blessing of earth, a ron; riichi not
        raise InputError(f"{name}: --chiihou is a non-dealer's win by self-draw on the first draw: record it with "
                         "`game tsumo`; a ron on a first-turn discard is --renhou")
    manual = any(options.get(k) is not None for k in ("han", "fu", "yakuman"))
    tiles = options.get("hand") is not None or options.get("win") is not None
    if manual and tiles:
        raise InputError(f"{name}: give either --han/--fu/--yakuman or --hand/--win, not both")
    if state.rules.fixed_payments is not None:
        given = [f"--{k}" for k in ("han", "fu", "yakuman", "dora", "ura") if options.get(k) is not None]
        if given:
            raise InputError(f"{name}: the {state.preset} rules pay a flat amount: {', '.join(given)} would be "
                             "dropped (give nothing, or --hand/--win to check the hand)")
        if not tiles:
            return Win(seat)
    if manual:
        tile_only = [f"--{k.replace('_', '-')}" for k, v in options.items() if v and k not in ("han", "fu", "yakuman")]
        if tile_only:  # the dora, ura and flags price a hand's tiles; the han given already count them
            raise InputError(f"{name}: {', '.join(tile_only)} count only with the tiles (--hand/--win); with "
                             "--han/--fu count them in the han")
        han, fu, yakuman = options.get("han") or 0, options.get("fu") or 0, options.get("yakuman") or 0
        if yakuman < 0 or han < 0 or fu < 0:
            raise InputError(f"{name}: han, fu and yakuman cannot be negative")
        if han > 13 or yakuman > 6:
            raise InputError(f"{name}: give at most 13 han (more counts as 13) and at most 6 yakuman")
        if not yakuman and han < 5 and not fu:
            raise InputError(f"{name}: below 5 han the fu are needed (--fu)")
        return Win(seat, han=han, fu=fu, yakuman=yakuman)
    if not tiles:
        raise InputError(f"{name}: give the hand (--hand TILES --win TILE) or --han/--fu or --yakuman")
    if options.get("hand") is None or options.get("win") is None:
        raise InputError(f"{name}: a hand needs both --hand (without the winning tile) and --win")
    from table.hand import parse_hand, validate_hand
    from table.presets import get_preset
    from table.scoring import Situation, score_hand
    from table.tiles import parse_tiles

    text = options["hand"] + " " + options["win"] + "".join(f" {m}" for m in options.get("meld") or [])
    preset = get_preset(state.preset)
    try:
        hand = parse_hand(options["hand"], options["win"], options.get("meld") or [])
        if state.rules.fixed_payments is not None:  # flat payments (uspml): any four sets and a pair wins
            validate_hand(hand, rules=preset.hand)
            _check_sets_and_pair(hand)
            return Win(seat, hand=text)
    except InputError as exc:
        raise InputError(f"{name}'s hand: {exc}") from None
    situation = Situation(
        tsumo=tsumo,
        riichi=state.riichi[seat] and not options.get("double_riichi"),
        double_riichi=bool(options.get("double_riichi")),
        ippatsu=bool(options.get("ippatsu")),
        rinshan=bool(options.get("rinshan")),
        chankan=bool(options.get("chankan")),
        haitei=bool(options.get("haitei")),
        houtei=bool(options.get("houtei")),
        tenhou=bool(options.get("tenhou")),
        chiihou=bool(options.get("chiihou")),
        renhou=bool(options.get("renhou")),
        seat_wind=state.seat_winds[seat],
        round_wind=state.round_wind,
        dora_indicators=tuple(t for text in options.get("dora") or [] for t in parse_tiles(text)),
        ura_indicators=tuple(t for text in options.get("ura") or [] for t in parse_tiles(text)),
    )
    if (situation.ippatsu or situation.double_riichi) and not state.riichi[seat]:
        raise InputError(f"{name} has not declared riichi this hand: record the riichi first")
    try:
        result = score_hand(hand, situation, preset)
    except InputError as exc:
        raise InputError(f"{name}'s hand: {exc}") from None
    if not result.valid:
        raise InputError(f"{name}'s hand does not score: {result.error}")
    yakuman = int(getattr(result, "yakuman", 0) or 0)
    han, fu = (0, 0) if yakuman else (result.han, result.fu)  # a yakuman is kept as its count, as the API keeps it
    return Win(seat, han=han, fu=fu, yakuman=yakuman,
               payment=HandValue.of(result.payment), yaku=tuple((str(n), int(h)) for n, h in result.yaku),
               hand=text)


MCR_MOST = 500  # fan: a sanity bound on a value typed by hand (the largest MCR hands make a few hundred)
_RIICHI_ONLY = ("han", "fu", "yakuman", "dora", "ura", "ippatsu", "double_riichi")
_SITUATION = ("rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou", "last_of_kind")


def _build_system_win(state, seat: int, options: dict[str, Any], *, tsumo: bool, discarder: int | None = None):
    """A Zung Jung or MCR Win: its value as given (--points / --fans), or the tiles scored on the spot with
    the game's seat wind (and, for MCR, the table wind)."""
    from table.events import Win
    from table.game import A_SYSTEM

    system, name = state.rules.system, state.players[seat]
    value_option, other_option = ("points", "fans") if system == "zungjung" else ("fans", "points")
    for option in _RIICHI_ONLY:
        if options.get(option) is not None:
            flag = "--" + option.replace("_", "-")
            raise InputError(f"{name}: {flag} is a riichi option; {A_SYSTEM[system]} win is the tiles "
                             f"(--hand/--win) or --{value_option} N")
    if options.get(other_option) is not None:
        raise InputError(f"{name}: --{other_option} is for {'MCR' if system == 'zungjung' else 'Zung Jung'}; "
                         f"{A_SYSTEM[system]} hand's value is --{value_option} N")
    value = options.get(value_option)
    tiles = options.get("hand") is not None or options.get("win") is not None
    if value is not None and tiles:
        raise InputError(f"{name}: give either --{value_option} or --hand/--win, not both")
    if value is not None:
        extra = [o for o in ("flowers", *_SITUATION) if options.get(o)]
        if extra:
            raise InputError(f"{name}: --{extra[0].replace('_', '-')} counts only when the tiles are scored; "
                             f"--{value_option} is the hand's whole value")
        if value < 1:
            raise InputError(f"{name}: --{value_option} must be 1 or more, not {value}")
        if system == "mcr" and value > MCR_MOST:
            raise InputError(f"{name}: --fans {value}: no MCR hand comes near that (a typo?)")
        return Win(seat, value=value)
    if not tiles:
        raise InputError(f"{name}: give the hand (--hand TILES --win TILE) or --{value_option} N")
    if options.get("hand") is None or options.get("win") is None:
        raise InputError(f"{name}: a hand needs both --hand (without the winning tile) and --win")
    earth = bool(options.get("renhou") or options.get("chiihou"))
    if earth and discarder is not None and state.seat_winds[discarder] != 0:
        raise InputError(f"{name}: the blessing of earth is a win on East's first discard; "
                         f"{state.players[discarder]} is not East")
    from table.system_win import scored_win

    return scored_win(
        state, seat, options["hand"], options["win"], options.get("meld") or [], tsumo=tsumo,
        flowers=options.get("flowers") or "", last_tile=bool(options.get("haitei") or options.get("houtei")),
        replacement=bool(options.get("rinshan")), robbing_quad=bool(options.get("chankan")),
        heaven=bool(options.get("tenhou")), earth=earth,
        last_of_kind=bool(options.get("last_of_kind")),
    )


def _check_sets_and_pair(hand) -> None:
    """The USPML beginner game's complete hand: four sets (pon or chi) and a pair, no yaku needed."""
    from table.waits import waits

    if any(m.is_kan for m in hand.melds):
        raise InputError("the beginner game has no kans: a complete hand is four sets (pon or chi) and a pair")
    for wait in waits(hand.concealed, hand.melds):
        if wait.tile_kind == hand.win.kind and {"chiitoitsu", "kokushi", "kokushi-13"}.isdisjoint(wait.shapes):
            return
    raise InputError("not a complete hand: the beginner game needs four sets (pon or chi) and a pair")


def _record(args, make_event) -> int:
    """Open the store, build the event against the current state, append it, print the new state."""
    store = _store(args)
    try:
        game_id = _game_id(store, args)
        state = store.state(game_id)
        event = make_event(state)
        new = store.append(game_id, event)
        _print_state(new, args, game_id)
    finally:
        store.close()
    return 0


def _print_state(state, args, game_id: int | None = None) -> None:
    if getattr(args, "json", False):
        out = state.to_json()
        if game_id is not None:
            out = {"game_id": game_id, **out}
        print(json.dumps(out, ensure_ascii=False))
        return
    print(format_state(state, game_id))


def format_state(state, game_id: int | None = None) -> str:
    """The scoreboard as text: round, counters, each seat's wind, points and riichi, the last hand."""
    from table.game import WIND_NAMES

    head = f"game {game_id} " if game_id is not None else ""
    where = f"game over after {state.last_hand.where}" if state.over and state.last_hand else state.round_name
    if state.rules.system != "riichi":
        # No counters or sticks: say how far into the 16 hands the game is (and MCR's table wind is in the name).
        if state.over:
            where += f", {state.hands_played} of 16 hands played"
        elif state.rules.system == "zungjung":
            where += " of 16"
        else:
            where += f", hand {state.round_wind * 4 + state.dealer + 1} of 16"
        lines = [f"{head}[{state.preset}] {where}"]
    else:
        honba = f", honba {state.honba}" if state.rules.counts_honba and not (state.over and state.last_hand) else ""
        lines = [f"{head}[{state.preset}] {where}{honba}"
                 + "".join(f", {name.replace('_', ' ')} {count}" for name, count in state.on_table)]
    width = max(16, *(_columns(name) for name in state.players))
    for seat, name in enumerate(state.players):
        mark = " riichi" if state.riichi[seat] else ""
        dealer = " (dealer)" if seat == state.dealer and not state.over else ""
        penalty = f" penalty {state.penalties[seat]:+d} at the end" if state.penalties[seat] and not state.over else ""
        wind = WIND_NAMES[state.seat_winds[seat]]
        lines.append(f"  {seat} {wind:<5} {_pad(isolate(name), width)} {state.points[seat]:>7}{dealer}{mark}{penalty}")
    if state.last_hand is not None:
        hand = state.last_hand
        changes = " ".join(f"{d:+d}" for d in hand.deltas)
        lines.append(f"last hand: {hand.summary([isolate(n) for n in state.players])} [{changes}]")
    if state.adjustment:
        amounts, reason = state.adjustment
        lines.append(f"then an adjustment: {reason} [{' '.join(f'{a:+d}' for a in amounts)}]")
    if state.over:
        lines.append(f"game over: {state.over_reason}")
        lines.extend(_standing_line(s, state.rules, width) for s in state.standings)
    return "\n".join(lines)


def _columns(text: str) -> int:
    """Terminal columns `text` takes: a CJK character or an emoji two; none for a mark drawn over the one before
    (an accent, a Thai or Devanagari vowel sign), a format character (a joiner, a bidi isolate), a skin tone, or an
    emoji a joiner joins to the one before (a family is one emoji)."""
    columns, joined = 0, False
    for ch in text:
        if not (joined or unicodedata.category(ch) in ("Mn", "Me", "Cf") or "\U0001f3fb" <= ch <= "\U0001f3ff"):
            columns += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        joined = ch == "\u200d"
    return columns


def _pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal columns, so the points after a name line up whatever script
    it is in."""
    return text + " " * max(0, width - _columns(text))


def _standing_line(s, rules, width: int = 16) -> str:
    """A riichi seat's result in its parts (points, their difference from the return, uma, oka, penalty, net);
    in Zung Jung and MCR the points alone, which are the result."""
    name = _pad(isolate(s.name), width)
    if rules.system != "riichi":
        return f"  {s.rank}. {name} {s.raw:>+7d}"
    return (f"  {s.rank}. {name} raw {s.raw:>7}  vs {rules.return_points}: {s.above_return:>+6d}  "
            f"uma {s.uma:+d}  oka {s.oka:+d}  penalty {s.penalty:+d}  net {s.net:+g}")


# -- commands -------------------------------------------------------------------------------------------


def _cmd_new(args) -> int:
    players = [p.strip() for p in args.players.split(",")]
    if len(players) != 4 or not all(players):
        hint = " (a name cannot hold a comma)" if len(players) > 4 else ""
        raise InputError(f"--players needs four names separated by commas{hint}, got {args.players!r}")
    from table.store import GameStore

    with GameStore(":memory:") as trial:  # every check new_game makes, before the file is created
        trial.new_game(players, args.rules)
    store = _store(args, create=True)
    try:
        game_id = store.new_game(players, args.rules)
        _print_state(store.state(game_id), args, game_id)
    finally:
        store.close()
    return 0


def _cmd_riichi(args) -> int:
    from table.events import RiichiDeclared

    return _record(args, lambda s: RiichiDeclared(resolve_seat(s, args.seat)))


def _cmd_ron(args) -> int:
    from table.events import Ron

    def make(state):
        discarder = resolve_seat(state, args.discarder)
        defaults = args.win_defaults or {}
        wins = []
        for entry in args.winners or []:
            options = {**defaults, **{k: v for k, v in entry.items() if k != "seat"}}
            seat = resolve_seat(state, entry["seat"])
            if seat == discarder:
                raise InputError(f"{state.players[seat]} discarded the tile and cannot win on it")
            wins.append(_build_win(state, seat, options, tsumo=False, discarder=discarder))
        first = None if args.first_discarder is None else resolve_seat(state, args.first_discarder)
        return Ron(discarder, tuple(wins), first, args.riichi_discard)

    return _record(args, make)


def _cmd_tsumo(args) -> int:
    from table.events import Tsumo

    return _record(args, lambda s: Tsumo(_build_win(s, resolve_seat(s, args.seat), args.win_defaults or {},
                                                    tsumo=True)))


def _cmd_draw(args) -> int:
    from table.events import ExhaustiveDraw

    def draw(state) -> ExhaustiveDraw:
        if args.tenpai is None and state.rules.system == "riichi":  # left out, a tenpai dealer would lose the deal
            raise InputError("say who was tenpai: --tenpai Bob,Cid, or --tenpai none when all four were noten")
        return ExhaustiveDraw(_seat_list(state, args.tenpai or ""), _seat_list(state, args.nagashi),
                              _seat_list(state, args.dead))

    return _record(args, draw)


def _cmd_abort(args) -> int:
    from table.events import AbortiveDraw

    return _record(args, lambda s: AbortiveDraw(args.reason))


def _cmd_chombo(args) -> int:
    from table.events import Chombo

    return _record(args, lambda s: Chombo(resolve_seat(s, args.seat)))


def _cmd_penalty(args) -> int:
    from table.events import Penalty

    def make(state):
        try:
            points = abs(int(args.points))
        except ValueError:
            raise InputError(f"penalty points {args.points!r} are not a whole number, e.g. 10000") from None
        return Penalty(resolve_seat(state, args.seat), points, args.reason)

    return _record(args, make)


def _cmd_pao(args) -> int:
    from table.events import Pao

    return _record(args, lambda s: Pao(resolve_seat(s, args.winner), resolve_seat(s, args.liable)))


def _cmd_adjust(args) -> int:
    from table.events import Adjustment

    def make(state):
        amounts, listed = [0, 0, 0, 0], set()
        for item in args.amounts:
            seat_text, sep, amount_text = item.rpartition("=")  # the last "=": a name may hold one
            if not sep:
                raise InputError(f"adjustment {item!r} must look like SEAT=AMOUNT, e.g. Bob=-1000")
            try:
                amount = int(amount_text)
            except ValueError:
                raise InputError(f"adjustment amount {amount_text!r} is not a whole number") from None
            seat = resolve_seat(state, seat_text)
            if seat in listed:  # summed, Bob=-30 ... Bob=10 recorded -20 without a word
                raise InputError(f"{state.players[seat]} is listed twice: give each seat's amount once")
            listed.add(seat)
            amounts[seat] = amount
        return Adjustment(tuple(amounts), args.reason)  # type: ignore[arg-type]

    return _record(args, make)


def _cmd_end(args) -> int:
    from table.events import GameEnded

    return _record(args, lambda s: GameEnded(args.reason))


def _cmd_undo(args) -> int:
    from table.events import Undo

    return _record(args, lambda s: Undo())


def _cmd_redo(args) -> int:
    from table.events import Redo

    return _record(args, lambda s: Redo())


def _cmd_show(args) -> int:
    store = _store(args)
    try:
        game_id = _game_id(store, args)
        _print_state(store.state(game_id), args, game_id)
    finally:
        store.close()
    return 0


def _cmd_export(args) -> int:
    store = _store(args)
    try:
        if args.csv and args.json:
            raise InputError("export gives one format: --csv or --json, not both")
        game_id = _game_id(store, args)
        if args.csv:
            sys.stdout.write(store.export_csv(game_id))
        elif args.json:
            print(json.dumps(store.export_json(game_id), ensure_ascii=False, indent=1))
        else:
            for event in store.events(game_id):
                print(json.dumps(event.to_json(), ensure_ascii=False))
    finally:
        store.close()
    return 0


def read_events(path: Path) -> list:
    """Events from a JSON-lines file (blank lines and lines starting with # are skipped), read as a person's typing
    (`typed`: held to what the command line takes); a line the JSON parser cannot take (nested too deep, a number
    too long) is named like any other bad line, not a traceback."""
    from table.events import event_from_json
    from table.jsonl_input import unique_fields

    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM, as Windows Notepad writes one
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            data = json.loads(line, object_pairs_hook=unique_fields)
            events.append(event_from_json(data, typed=True))
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{number}: not JSON ({exc.msg})") from None
        except InputError as exc:
            raise InputError(f"{path}:{number}: {exc}") from None
        except RecursionError:
            raise InputError(f"{path}:{number}: not an event: nested too deep") from None
        except ValueError:  # the only other one: an integer past Python's digit limit for int()
            raise InputError(f"{path}:{number}: a number is too long (over {sys.get_int_max_str_digits()} digits)"
                             ) from None
    return events


def _cmd_replay(args) -> int:
    from table.game import fold

    state = fold(read_events(args.file), as_new=True)  # checked as `game ron` / `game tsumo` check a hand
    _print_state(state, args)
    return 0


def _cmd_resume(args) -> int:
    store = _store(args)
    try:
        store.resume(args.resume)
        _print_state(store.state(args.resume), args, args.resume)
    finally:
        store.close()
    return 0


def _cmd_list(args) -> int:
    games = []
    if _db_path(args).exists():
        store = _store(args)
        try:
            games = store.games()
        finally:
            store.close()
    if args.json:
        print(json.dumps([g.to_json() for g in games], ensure_ascii=False))
        return 0
    if not games:
        where = "" if _db_path(args).exists() else f" (there is no game database at {_db_path(args)})"
        print(f"no games yet{where}")
    for g in games:
        status = "over" if g.over else g.round_name
        mark = "*" if g.current else " "  # the game that commands without --game act on
        print(f"{g.id:>4}{mark} {g.created_at[:16]}  {g.preset:<11} {status:<9} {', '.join(map(isolate, g.players))}")
    return 0


def _cmd_bench(args) -> int:
    from table.game_bench import run_bench

    if args.appends < 1 or min(args.events, args.evening) < 2:
        raise InputError("--appends must be at least 1, --events and --evening at least 2 (the game start and one "
                         "more)")
    if args.dir is not None and not args.dir.is_dir():
        raise InputError(f"--dir {args.dir} is not a folder")
    print(run_bench(appends=args.appends, events=args.events, evening=args.evening, directory=args.dir))
    return 0
