"""`jantaku score`, `jantaku waits` and `jantaku bench scoring`.

Exit codes: 0 a scored win (or a tenpai hand for `waits`), 1 a valid question with a negative
answer (not a winning hand, no yaku, not tenpai), 2 bad input (message on standard error).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from typing import IO

from table.cli_options import Once
from table.errors import InputError
from table.game import SYSTEM_TITLES
from table.hand import Hand, meld_from_json, parse_hand, parse_meld, read_tiles
from table.hand_rules import HandRules
from table.jsonl_input import hand_fields, jsonl_object, loads_unique, wind_fields
from table.presets import DEFAULT_PRESET, PRESET_NAMES, get_preset
from table.scoring import ScoreResult, Situation, score_hand
from table.tiles import WIND_LETTERS, Tile, parse_tiles, to_mpsz, wind_index

FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou",
         "chiihou", "renhou")
JSONL_FIELDS = frozenset({"hand", "win", "melds", "dora", "ura", "seat", "round", "honba", "riichi_sticks",
                          "rules", "system", *FLAGS})


def resolve_rules(name: str | None) -> HandRules:
    """Hand rules of a preset by name (case-insensitive); InputError listing the names otherwise."""
    return get_preset(name or DEFAULT_PRESET).hand


# ---------------------------------------------------------------- human form


def add_situation_arguments(p: argparse.ArgumentParser, dora_help: str) -> None:
    """The flags that say how a hand was won, where and under which rules: what the tiles cannot show, asked alike by
    `score` and `score-photo`."""
    p.add_argument("--dora", action="append", default=[], metavar="TILES", help=dora_help)
    p.add_argument("--ura", action="append", default=[], metavar="TILES", help="ura dora indicator(s)")
    for flag in FLAGS:
        p.add_argument(f"--{flag.replace('_', '-')}", dest=flag, action="store_true")
    p.add_argument("--seat", action=Once, default="E", help="seat wind E S W N (E = dealer; default E)")
    p.add_argument("--round", action=Once, default="E", help="round wind E S W N (default E)")
    p.add_argument("--honba", action=Once, type=int, default=0, help="honba counters on the table (default 0)")
    p.add_argument("--sticks", action=Once, type=int, default=0,
                   help="riichi sticks on the table (including this hand's)")
    p.add_argument("--rules", action=Once, default=None,
                   help=f"rule preset: {', '.join(PRESET_NAMES)} (default {DEFAULT_PRESET})")


def _add_score_parser(commands) -> None:
    p = commands.add_parser(
        "score",
        help="score a winning hand (yaku, han, fu, points)",
        description="Score a winning riichi hand. Tiles in MPSZ notation: 123m456p789s1122z, 0m/0p/0s = red "
        "fives, 1z-7z = East South West North White Green Red. Exit 0 scored, 1 not a win (no yaku / "
        "not complete), 2 bad input.",
    )
    p.add_argument("tiles", nargs="*", help="concealed tiles without the winning tile (may be split in groups)")
    p.add_argument("--win", action=Once, help="the winning tile, e.g. 4s")
    p.add_argument("--meld", action="append", default=[], metavar="KIND:TILES[:SOURCE]",
                   help="a called meld: chi, pon, kan, added-kan or closed-kan, e.g. pon:777z (repeatable)")
    add_situation_arguments(p, "dora indicator(s), e.g. 1m")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--jsonl", action="store_true",
                     help="read one JSON hand per line on standard input, write one result per line")
    if _systems() is not None:
        _systems().add_system_arguments(p)
    p.set_defaults(func=run_score)


def _systems():
    """table.systems_cli (Zung Jung and MCR on the same command) when present."""
    try:
        import table.systems_cli as systems
    except ModuleNotFoundError as exc:
        if exc.name != "table.systems_cli":
            raise
        return None
    return systems


def _indicators(values: Iterable[str]) -> tuple:
    return tuple(t for v in values for t in parse_tiles(v))


def run_score(args: argparse.Namespace) -> int:
    systems = _systems()
    if systems is not None:
        routed = systems.route_score(args)
        if routed is not None:
            return routed
    if args.jsonl:
        unset = {"meld": [], "dora": [], "ura": [], "seat": "E", "round": "E", "honba": 0, "sticks": 0}
        given = [f"--{name.replace('_', '-')}" for name in (*FLAGS, *unset)
                 if getattr(args, name) != unset.get(name, False)]
        if args.tiles or args.win or given:
            raise InputError("--jsonl reads each hand and its situation from standard input: give no tiles, --win "
                             f"or hand options{' (' + ', '.join(given) + ')' if given else ''}; --rules sets the "
                             "preset of lines without \"rules\"")
        resolve_rules(args.rules)  # a wrong --rules is one error now, not one per line
        # bytes in: a line of bad UTF-8 is one bad line, not a crash
        return score_stream(sys.stdin.buffer, sys.stdout, default_rules=args.rules)
    if not args.tiles:
        raise InputError("give the concealed tiles, e.g. jantaku score 234m567p11s345s78s --win 9s")
    if not args.win:
        raise InputError("give the winning tile with --win, e.g. --win 4s")
    rules = resolve_rules(args.rules)
    hand = parse_hand("".join(args.tiles), args.win, [parse_meld(m) for m in args.meld])
    situation = Situation(
        **{f: getattr(args, f) for f in FLAGS},
        seat_wind=wind_index(args.seat),
        round_wind=wind_index(args.round),
        dora_indicators=_indicators(args.dora),
        ura_indicators=_indicators(args.ura),
        honba=args.honba,
        riichi_sticks=args.sticks,
    )
    result = score_given(hand, situation, rules)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render(hand, situation, rules, result))
    return 0 if result.valid else 1


def _flags_text(s: Situation) -> str:
    words = ["tsumo" if s.tsumo else "ron"]
    words += [f.replace("_", " ") for f in FLAGS[1:] if getattr(s, f)]
    return ", ".join(words)


def render(hand: Hand, s: Situation, rules: HandRules, r: ScoreResult) -> str:
    """The one-screen human form: the hand, the yaku table, the payment."""
    melds = "  ".join(f"[{m}]" for m in hand.melds)
    lines = [
        f"Hand   {to_mpsz(hand.concealed)}  {melds + '  ' if melds else ''}win {hand.win}",
        f"Win    {_flags_text(s)}; seat {WIND_LETTERS[s.seat_wind]}{' (dealer)' if s.is_dealer else ''}, "
        f"round {WIND_LETTERS[s.round_wind]}; rules {rules.title}",
    ]
    if s.dora_indicators or s.ura_indicators:
        lines.append(f"Dora   indicators {to_mpsz(s.dora_indicators, sort=False) or '-'}"
                     f"{'; ura ' + to_mpsz(s.ura_indicators, sort=False) if s.ura_indicators else ''}")
    if not r.valid:
        lines.append(f"Not a win: {r.error}")
        lines.extend(f"Note   {n}" for n in r.notes)
        return "\n".join(lines)
    width = max(len(name) for name, _ in r.yaku) + 2
    lines.append("")
    for name, han in r.yaku:
        if r.yakuman:
            lines.append(f"  {name:<{width}}{'yakuman' if han == 13 else f'{han // 13}x yakuman'}")
        else:
            lines.append(f"  {name:<{width}}{han} han")
    lines.append("")
    if r.yakuman:
        value = f"{r.yakuman}x yakuman" if r.yakuman > 1 else "yakuman"
    else:
        value = f"{r.han} han {r.fu} fu"
        if r.fu_details:
            value += "  (" + ", ".join(f"{reason.replace('_', ' ')} {fu}" for reason, fu in r.fu_details) + ")"
    lines.append(f"Value  {value}{'  ' + r.limit if r.limit and not r.yakuman else ''}")
    p = r.payment
    assert p is not None
    if p.ron is not None:
        pay = f"{p.ron} from the discarder"
    elif p.tsumo_dealer is None:
        pay = f"{p.tsumo_other} all (from each of the three)"
    else:
        pay = f"{p.tsumo_dealer} from the dealer, {p.tsumo_other} from each other player"
    lines.append(f"Pay    {pay}")
    extras = []
    if r.honba_bonus:
        extras.append(f"+{r.honba_bonus} honba")
    if r.sticks_bonus:
        extras.append(f"+{r.sticks_bonus} riichi sticks")
    lines.append(f"Total  {r.total}{'  (' + ', '.join(extras) + ')' if extras else ''}")
    lines.extend(f"Note   {n}" for n in r.notes)
    return "\n".join(lines)


# ---------------------------------------------------------------- JSON lines


def _int(obj: dict, key: str) -> int:
    value = obj.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"field {key!r} must be a whole number, not {value!r}")
    return value


def _tile_list(obj: dict, key: str) -> tuple:
    value = obj.get(key)
    if not value:
        return ()
    if type(value) is str:
        return tuple(read_tiles(value))
    tiles: list = []
    if type(value) is list:
        for v in value:
            if type(v) is not str:
                break
            tiles += read_tiles(v)
        else:
            return tuple(tiles)
    raise InputError(f"field {key!r} must be a list of tiles like [\"1m\", \"5z\"], not {value!r}")


def score_object(obj: object, default_rules: str = DEFAULT_PRESET) -> ScoreResult:
    """Score one JSONL input object (see README "Scoring a hand"); `default_rules` for one without "rules"."""
    obj = jsonl_object(obj, JSONL_FIELDS)
    if "system" in obj and obj["system"] != "riichi":
        raise InputError("this stream scores riichi hands: run Zung Jung or MCR with --system zungjung|mcr")
    hand_text, win, melds = hand_fields(obj)
    rules_name = obj.get("rules")
    if rules_name is not None and not isinstance(rules_name, str):
        raise InputError("field \"rules\" must be a preset name")
    rules = resolve_rules(rules_name or default_rules)
    hand = parse_hand(hand_text, win, [meld_from_json(m) for m in melds])
    seat, round_ = wind_fields(obj)
    flags = [obj.get(f, False) for f in FLAGS]
    for f, value in zip(FLAGS, flags, strict=True):
        if type(value) is not bool:
            raise InputError(f"field {f!r} must be true or false, not {value!r}")
    situation = Situation(
        *flags,
        seat_wind=wind_index(seat),
        round_wind=wind_index(round_),
        dora_indicators=_tile_list(obj, "dora"),
        ura_indicators=_tile_list(obj, "ura"),
        honba=_int(obj, "honba"),
        riichi_sticks=_int(obj, "riichi_sticks"),
    )
    return score_given(hand, situation, rules)


def score_given(hand: Hand, situation: Situation, rules: HandRules) -> ScoreResult:
    """`score_hand` for a hand and situation a person typed (not the game's, whose sticks it counts itself): a
    riichi with no stick on the table forgot the winner's own, which `sticks` includes."""
    result = score_hand(hand, situation, rules)
    if result.valid and (situation.riichi or situation.double_riichi) and not situation.riichi_sticks:
        result.notes.append("a riichi winner's own stick is on the table too: sticks count it (give at least 1 to "
                            "be paid it back)")
    return result


def bad_input_json(message: str) -> dict[str, object]:
    """A result line for input that could not be read: every field of a normal line, plus `bad_input`."""
    return {**ScoreResult(valid=False, error=message).to_json(), "bad_input": True}


def score_stream(lines: Iterable[str | bytes], out: IO[str], default_rules: str = DEFAULT_PRESET) -> int:
    """Score one JSON object per input line, one result line per non-blank input line, in order.

    Exit status: 2 if any line was bad input, else 1 if any hand did not win, else 0. orjson keeps
    the JSON in and out cheap next to the scoring itself (the bench's 60 % goal).
    """
    import orjson

    status = 0
    loads, dumps, write = orjson.loads, orjson.dumps, out.write
    for line in lines:
        if not line.strip():
            continue
        try:
            result = score_object(loads_unique(line, loads), default_rules).to_json()
            if not result["valid"]:
                status = max(status, 1)
        except orjson.JSONDecodeError as exc:
            result = bad_input_json(f"line is not JSON: {exc}")
            status = 2
        except InputError as exc:
            result = bad_input_json(str(exc))
            status = 2
        write(dumps(result).decode())
        write("\n")
    out.flush()
    return status


# ---------------------------------------------------------------- waits


def _add_waits_parser(commands) -> None:
    p = commands.add_parser(
        "waits",
        help="waits, tenpai and furiten of a 13-tile hand",
        description="List the tiles that complete a 13-tile hand (with melds) and their shapes, say whether "
        "it is tenpai, and with --discards whether the player is furiten. Exit 0 tenpai, 1 not tenpai, "
        "2 bad input.",
    )
    p.add_argument("tiles", nargs="+", help="the concealed tiles (13 minus 3 per meld)")
    p.add_argument("--meld", action="append", default=[], metavar="KIND:TILES", help="a meld (repeatable)")
    p.add_argument("--discards", action=Once, default=None, help="the player's own discards, e.g. 19m5z")
    p.add_argument("--rules", action=Once, default=None,
                   help=f"rule preset, for the red fives its set holds (default {DEFAULT_PRESET})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_waits)


def run_waits(args: argparse.Namespace) -> int:
    from table.waits import SHAPES, furiten, system_waits, waits

    tiles = parse_tiles("".join(args.tiles))
    melds = [parse_meld(m) for m in args.meld]
    if not tiles:
        raise InputError("no hand given: name the waiting hand's tiles (13, less 3 per meld), e.g. "
                         "jantaku waits 1112345678999m --discards 9m")
    rules = resolve_rules(args.rules)
    if args.discards is not None and rules.system != "riichi":
        raise InputError(f"--discards checks riichi furiten, and {SYSTEM_TITLES[rules.system]} has none (the club's "
                         "text: \"no Furiten rules are in effect\"; a discard win there is always allowed): drop "
                         "--discards to list the waits")
    # Zung Jung and MCR win on shapes riichi has not got (a four in Seven Pairs, MCR's knitted hands): their own
    # scorer says which tiles complete the hand
    found = waits(tiles, melds, rules) if rules.system == "riichi" else system_waits(tiles, melds, rules.system, rules)
    fur = furiten(tiles, melds, parse_tiles(args.discards), rules) if args.discards is not None else None
    if args.json:
        obj: dict[str, object] = {
            "tenpai": bool(found),
            "waits": [{"tile": str(Tile(w.tile_kind)), "shapes": list(w.shapes)} for w in found],
        }
        if fur is not None:
            obj["furiten"] = fur.furiten
            obj["furiten_tiles"] = [str(Tile(k)) for k in fur.tiles]
            obj["reason"] = fur.reason
        print(json.dumps(obj))
    else:
        melds_text = "  ".join(f"[{m}]" for m in melds)
        print(f"Hand    {to_mpsz(tiles)}{'  ' + melds_text if melds_text else ''}")
        if found:
            print(f"Tenpai  yes, {len(found)} wait{'s' if len(found) > 1 else ''}")
            for w in found:
                print(f"  {w.name:<6} {', '.join(SHAPES[s] for s in w.shapes)}")
        else:
            print("Tenpai  no (no tile that can still come completes the hand)")
        if fur is not None:
            print(f"Furiten {'YES' if fur.furiten else 'no'}: {fur.reason}")
    return 0 if found else 1


# ---------------------------------------------------------------- bench


def _add_bench_parser(bench) -> None:
    p = bench.add_parser(
        "scoring",
        help="hands/s through `score --jsonl` vs the mahjong package called directly",
        description="Score the same random valid hands through our --jsonl path (parse, validate, score, "
        "JSON out) and through mahjong's HandCalculator directly (136-format arrays prepared in advance, one "
        "HandConfig per hand), and print both rates and their ratio.",
    )
    p.add_argument("--hands", action=Once, type=int, default=3000)
    p.add_argument("--seed", action=Once, type=int, default=1)
    p.add_argument("--rules", action=Once, default=DEFAULT_PRESET)
    p.add_argument("--repeat", action=Once, type=int, default=5, help="take the best of this many runs of each side")
    p.set_defaults(func=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    import io
    import random

    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    from table.random_hands import random_hand, to_jsonl_input
    from table.scoring import _to_136

    if args.hands < 1 or args.repeat < 1:
        raise InputError("--hands and --repeat must be at least 1")
    rules = resolve_rules(args.rules)
    rng = random.Random(args.seed)
    items = [random_hand(rng, rules) for _ in range(args.hands)]
    lines = "".join(json.dumps(to_jsonl_input(it, args.rules)) + "\n" for it in items).splitlines(keepends=True)
    options = rules.to_optional_rules()
    prepared = []
    for it in items:
        tiles, win, melds = _to_136(it.hand)
        s = it.situation
        prepared.append((tiles, win, melds, [t.kind * 4 for t in s.dora_indicators],
                         [t.kind * 4 for t in s.ura_indicators], s))

    def direct() -> None:
        for tiles, win, melds, dora, ura, s in prepared:
            config = HandConfig(
                is_tsumo=s.tsumo, is_riichi=s.riichi or s.double_riichi, is_ippatsu=s.ippatsu,
                is_rinshan=s.rinshan, is_chankan=s.chankan, is_haitei=s.haitei, is_houtei=s.houtei,
                is_daburu_riichi=s.double_riichi, player_wind=27 + s.seat_wind, round_wind=27 + s.round_wind,
                tsumi_number=s.honba, kyoutaku_number=s.riichi_sticks, options=options,
            )
            HandCalculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=config,
                                               ura_dora_indicators=ura)

    def ours() -> None:
        score_stream(iter(lines), io.StringIO())

    direct()  # warm-up both (imports, caches)
    ours()
    best_direct = best_ours = float("inf")
    for _ in range(args.repeat):  # interleaved, so load from other processes hits both sides alike
        best_direct = min(best_direct, _timed(direct))
        best_ours = min(best_ours, _timed(ours))
    n = len(items)
    rate_direct, rate_ours = n / best_direct, n / best_ours
    ratio = rate_ours / rate_direct
    print(f"hands               {n} random valid hands (seed {args.seed}, rules {args.rules}); "
          f"best of {args.repeat}, CPU time")
    print(f"mahjong direct      {rate_direct:,.0f} hands/s  ({1e6 * best_direct / n:.1f} us/hand)")
    print(f"jantaku --jsonl     {rate_ours:,.0f} hands/s  ({1e6 * best_ours / n:.1f} us/hand)")
    print(f"ratio               {100 * ratio:.0f} % of the library's throughput (goal >= 60 %: "
          f"{'met' if ratio >= 0.6 else 'NOT met'})")
    return 0


def _timed(fn) -> float:
    """CPU seconds of this process: steadier than wall time when other processes share the cores."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def register(commands, bench) -> None:
    _add_score_parser(commands)
    _add_waits_parser(commands)
    _add_bench_parser(bench)
