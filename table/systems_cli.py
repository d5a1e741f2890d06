"""`jantaku score ... --system zungjung|mcr`: the club's other two rule systems on the same command.

The riichi parser (table.score_cli) owns the shared options (tiles, --win, --meld, --seat, --round,
--tsumo, --json, --jsonl, and the situation flags); `add_system_arguments` adds the ones only these
systems use, and `score_other_system` takes over when --system is not riichi. Riichi flag names map to
the same events: --rinshan = out with the replacement tile, --chankan = robbing the quad,
--haitei/--houtei = last tile draw/claim, --tenhou = blessing of heaven, --renhou (or --chiihou) = blessing of
earth (Zung Jung 9.4.2: a win on East's first discard, riichi's renhou).

Exit codes as for riichi: 0 a scored win, 1 not a win (incomplete, or under the minimum), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from table.cli_options import Once
from table.errors import InputError
from table.hand import Hand, meld_from_json, parse_hand, parse_meld
from table.jsonl_input import hand_fields, jsonl_object, unique_fields, wind_fields
from table.mcr import BASE
from table.tiles import WIND_LETTERS, parse_tiles, to_mpsz, wind_index

SYSTEMS = ("riichi", "zungjung", "mcr")
_SYSTEM_ALIASES = {"zj": "zungjung", "zung-jung": "zungjung", "international": "mcr", "chinese": "mcr"}
JSONL_FIELDS = frozenset({"hand", "win", "melds", "seat", "round", "tsumo", "self_drawn", "flowers", "last_tile",
                          "replacement", "robbing_quad", "heaven", "earth", "last_of_kind", "minimum", "payoff",
                          "halve_bonus", "system"})
_BOOL_FIELDS = ("tsumo", "self_drawn", "last_tile", "replacement", "robbing_quad", "heaven", "earth",
                "last_of_kind", "halve_bonus")


def system_name(text: str | None) -> str:
    key = (text or "riichi").strip().lower()
    key = _SYSTEM_ALIASES.get(key, key)
    if key not in SYSTEMS:
        raise InputError(f"unknown rule system {text!r}: choose riichi, zungjung or mcr")
    return key


def add_system_arguments(p: argparse.ArgumentParser) -> None:
    """The options `jantaku score` needs for Zung Jung and MCR (riichi ignores them)."""
    g = p.add_argument_group("Zung Jung and MCR")
    g.add_argument("--system", action=Once, default=None, type=str,
                   help="rule system: riichi (default), zungjung (Zung Jung 3.3) or mcr (International, 81 fan)")
    g.add_argument("--flowers", action=Once, default="", metavar="TILES",
                   help="declared bonus tiles: flowers 1f-4f, seasons 1g-4g (MCR: 1 fan each; Zung Jung: 11.0)")
    g.add_argument("--minimum", action=Once, type=int, default=None,
                   help="points needed to win: Zung Jung default 0 (chicken hand wins; 5 competitive), MCR 8 "
                        "(6: the beginner sub-format, which has no 8-point base payment)")
    g.add_argument("--payoff", action=Once, default=None, help="Zung Jung payoff scheme: standard (default) or uniform")
    g.add_argument("--halve-bonus", action="store_true", help="Zung Jung: halve the 11.0 bonus-tile points")
    g.add_argument("--last-of-kind", action="store_true",
                   help="MCR 58 Last Tile: the winning tile is the last of its kind")


# ---------------------------------------------------------------- scoring one hand


def _score(system: str, hand: Hand, *, self_drawn: bool, seat: int, round_wind: int, flowers: tuple,
           last_tile: bool, replacement: bool, robbing_quad: bool, heaven: bool, earth: bool,
           last_of_kind: bool, minimum: int | None, payoff: str, halve_bonus: bool):
    for meld in hand.melds:  # as in riichi: a chow takes the discard of the player before you only
        if meld.kind == "chi" and meld.source not in (None, "left"):
            raise InputError(f"a chow ({meld}) can only be called from the player on the left, not {meld.source}")
    if system == "zungjung":
        from table.zungjung import ZungJungRules, ZungJungWin, score_zungjung

        if last_of_kind:
            raise InputError("--last-of-kind is an MCR pattern; Zung Jung has no such pattern")
        rules = ZungJungRules(minimum=0 if minimum is None else minimum, bonus_tiles=bool(flowers),
                              halve_bonus=halve_bonus, payoff=payoff)
        win = ZungJungWin(self_drawn=self_drawn, seat_wind=seat, last_tile=last_tile, replacement=replacement,
                          robbing_quad=robbing_quad, heaven=heaven, earth=earth, bonus=flowers)
        return score_zungjung(hand, win, rules), rules
    from table.mcr import MINIMUM, MCRRules, MCRWin, score_mcr

    if heaven or earth:
        raise InputError("MCR has no blessings of heaven or earth")
    rules = MCRRules(minimum=MINIMUM if minimum is None else minimum)
    win = MCRWin(self_drawn=self_drawn, seat_wind=seat, prevalent_wind=round_wind, wall_last=last_tile,
                 replacement=replacement, robbing_quad=robbing_quad, last_of_kind=last_of_kind, bonus=flowers)
    return score_mcr(hand, win, rules), rules


def payment_summary(system: str, value: int, *, self_drawn: bool, payoff: str = "standard",
                    mcr_base: int = BASE) -> dict[str, int]:
    """What the losers pay, by role: {"each": N} on a self-draw (or a split-evenly discard), else
    {"discarder": N, "others": M}. Same-round immunity needs the seats, so game keeping applies it. `mcr_base`
    is `MCRRules.base`: 0 in the beginner sub-format (--minimum 6)."""
    if system == "zungjung":
        from table.zungjung import zungjung_payoff

        pay = zungjung_payoff(value, 0, self_drawn=self_drawn, discarder=None if self_drawn else 1, scheme=payoff)
    else:
        from table.mcr import mcr_payment

        pay = mcr_payment(value, 0, self_drawn=self_drawn, discarder=None if self_drawn else 1, base=mcr_base)
    if self_drawn or pay.paid[1] == pay.paid[2]:
        return {"each": pay.paid[1]}
    return {"discarder": pay.paid[1], "others": pay.paid[2]}


def result_json(system: str, result, *, self_drawn: bool, payoff: str = "standard",
                mcr_base: int = BASE) -> dict[str, object]:
    out = result.to_json()
    out["payment"] = payment_summary(system, result.total, self_drawn=self_drawn, payoff=payoff,
                                     mcr_base=mcr_base) if result.valid else None
    return out


def route_score(args: argparse.Namespace) -> int | None:
    """For `jantaku score`: None when the hand is riichi (refusing the options riichi has not got), else the
    exit code of scoring it under Zung Jung or MCR."""
    system = system_name(getattr(args, "system", None))
    preset = _preset_system(getattr(args, "rules", None))
    if preset != "riichi":  # `--rules zungjung|mcr` names the system as well
        if getattr(args, "system", None) is not None and system != preset:
            raise InputError(f"--rules {args.rules} is the {preset} preset; it cannot be scored with --system {system}")
        args.system = system = preset
        _preset_defaults(args)
    elif system != "riichi" and getattr(args, "rules", None):
        raise InputError(f"--rules {args.rules} is a riichi preset; --system {system} takes none")
    if system != "riichi":
        return score_other_system(args)
    for option, given in (("--flowers", getattr(args, "flowers", "")), ("--minimum", getattr(args, "minimum", None)),
                          ("--halve-bonus", getattr(args, "halve_bonus", False)),
                          ("--last-of-kind", getattr(args, "last_of_kind", False)),
                          ("--payoff", getattr(args, "payoff", None))):
        if given:
            raise InputError(f"{option} is for --system zungjung or mcr; riichi has no such option")
    return None


def _preset_defaults(args: argparse.Namespace) -> None:
    """A Zung Jung or MCR preset's own minimum and payoff (`--rules zungjung-competitive`: a 5-point minimum) where
    the command line gives none, as `jantaku game` keeps them."""
    from table.presets import get_preset

    preset = get_preset(args.rules)
    if getattr(args, "minimum", None) is None:
        args.minimum = preset.hand.win_minimum
    if getattr(args, "payoff", None) is None and preset.hand.system == "zungjung":
        args.payoff = preset.game.zungjung_payoff


def _preset_system(name: str | None) -> str:
    """The scoring system of a preset name ("riichi" for riichi presets and for names the riichi path will
    report as unknown)."""
    if not name:
        return "riichi"
    from table.presets import get_preset

    try:
        return get_preset(name).hand.system
    except InputError:
        return "riichi"


def score_other_system(args: argparse.Namespace) -> int:
    """`jantaku score --system zungjung|mcr`: score one hand from the command line (or a JSONL stream)."""
    system = system_name(getattr(args, "system", None))
    if system == "riichi":
        raise InputError("score_other_system scores Zung Jung and MCR; riichi is table.score_cli's")
    if system == "mcr" and (getattr(args, "payoff", None) or getattr(args, "halve_bonus", False)):
        raise InputError("--payoff and --halve-bonus are Zung Jung options; MCR has no such option")
    if getattr(args, "jsonl", False):
        hand_options = [f"--{k.replace('_', '-')}" for k in ("tsumo", "flowers", "last_of_kind", "haitei", "houtei",
                                                            "rinshan", "chankan", "tenhou", "chiihou", "renhou")
                        if getattr(args, k, False)]
        hand_options += [f"--{k}" for k in ("seat", "round") if getattr(args, k, "E") != "E"]
        if args.tiles or args.win or args.meld or hand_options:
            raise InputError("--jsonl reads each hand and its situation from standard input: give no tiles, --win "
                             f"or hand options{' (' + ', '.join(hand_options) + ')' if hand_options else ''}; "
                             "--minimum, --payoff and --halve-bonus (or --rules) set those of lines without them")
        defaults = {k: v for k in ("minimum", "payoff", "halve_bonus") if (v := getattr(args, k, None))}
        return score_stream(sys.stdin, sys.stdout, system=system, defaults=defaults)
    for flag in ("riichi", "double_riichi", "ippatsu"):
        if getattr(args, flag, False):
            raise InputError(f"--{flag.replace('_', '-')} is a riichi rule; {system} has no such thing")
    if getattr(args, "dora", None) or getattr(args, "ura", None):
        raise InputError(f"dora are a riichi rule; {system} has none")
    if getattr(args, "honba", 0) or getattr(args, "sticks", 0):
        raise InputError(f"honba and riichi sticks are riichi's; {system} has neither")
    if system == "zungjung" and wind_index(getattr(args, "round", "E")) != 0:
        raise InputError(f"Zung Jung has no table wind (3.1 counts the seat wind only): drop --round {args.round}")
    if not args.tiles:
        raise InputError(f"give the concealed tiles, e.g. jantaku score 123m456m789m234p5p --win 5p --system {system}")
    if not args.win:
        raise InputError("give the winning tile with --win, e.g. --win 4s")
    hand = parse_hand("".join(args.tiles), args.win, [parse_meld(m) for m in args.meld])
    if any(t.red for t in hand.all_tiles()):
        raise InputError(f"{system} has no red fives: write 0m, 0p and 0s as 5m, 5p and 5s")
    self_drawn = bool(getattr(args, "tsumo", False))
    haitei, houtei = getattr(args, "haitei", False), getattr(args, "houtei", False)
    if haitei and not self_drawn:
        raise InputError("--haitei (last tile draw) is a self-drawn win: add --tsumo, or use --houtei")
    if houtei and self_drawn:
        raise InputError("--houtei (last tile claim) is a win on a discard: drop --tsumo, or use --haitei")
    payoff = getattr(args, "payoff", None) or "standard"
    result, rules = _score(
        system, hand, self_drawn=self_drawn, seat=wind_index(getattr(args, "seat", "E")),
        round_wind=wind_index(getattr(args, "round", "E")),
        flowers=tuple(parse_tiles(getattr(args, "flowers", "") or "", allow_bonus=True)),
        last_tile=haitei or houtei, replacement=getattr(args, "rinshan", False),
        robbing_quad=getattr(args, "chankan", False), heaven=getattr(args, "tenhou", False),
        earth=getattr(args, "renhou", False) or getattr(args, "chiihou", False),
        last_of_kind=getattr(args, "last_of_kind", False),
        minimum=getattr(args, "minimum", None), payoff=payoff, halve_bonus=getattr(args, "halve_bonus", False),
    )
    if getattr(args, "json", False):
        print(json.dumps(result_json(system, result, self_drawn=self_drawn, payoff=payoff, mcr_base=_base(rules)),
                         ensure_ascii=False))
    else:
        print(render(system, hand, result, self_drawn=self_drawn, seat=args.seat, round_wind=args.round,
                     payoff=payoff, rules=rules))
    return 0 if result.valid else 1


# ---------------------------------------------------------------- human form


def render(system: str, hand: Hand, result, *, self_drawn: bool, seat: str, round_wind: str, payoff: str,
           rules) -> str:
    melds = "  ".join(f"[{m}]" for m in hand.melds)
    how = "self-drawn" if self_drawn else "on a discard"
    if system == "zungjung":
        title = f"Zung Jung 3.3, {payoff} payoff" + (f", {rules.minimum}-point minimum" if rules.minimum else "")
        where = f"seat {WIND_LETTERS[wind_index(seat)]}"
    else:
        title = f"MCR, {rules.minimum}-fan minimum"
        where = f"seat {WIND_LETTERS[wind_index(seat)]}, round {WIND_LETTERS[wind_index(round_wind)]}"
    lines = [
        f"Hand   {to_mpsz(hand.concealed)}  {melds + '  ' if melds else ''}win {hand.win}",
        f"Win    {how}; {where}; {title}",
    ]
    if not result.valid and not (result.to_json().get("patterns") or result.to_json().get("fans")):
        lines.append(f"Not a win: {result.error}")
        return "\n".join(lines)
    lines.append("")
    if system == "zungjung":
        if result.arrangement:
            lines.insert(1, f"Sets   {result.arrangement}")
        for p in result.patterns:
            label = f"{p.code} {p.name}".strip()
            lines.append(f"  {label:<40}{p.points:>4}" + (f"   {p.detail}" if p.detail else ""))
        lines.append("")
        limit = {"cap": "  (limit: sum over 320 cut to 320)",
                 "single": "  (limit: a pattern of 320 or more scores alone)"}.get(result.limit or "", "")
        lines.append(f"Value  {result.total} point{'' if result.total == 1 else 's'}{limit}")
    else:
        for f in result.fans:
            count = f" x{f.count}" if f.count > 1 else ""
            lines.append(f"  {f.number:>2} {f.name + count:<40}{f.total:>4}")
        lines.append("")
        flowers = f"  ({result.fan_points} + {result.flowers} flower{'s' if result.flowers > 1 else ''})" \
            if result.flowers else ""
        lines.append(f"Value  {result.total} fan{flowers}")
    if not result.valid:
        lines.append(f"Not a win: {result.error}")
        return "\n".join(lines)
    pay = payment_summary(system, result.total, self_drawn=self_drawn, payoff=payoff, mcr_base=_base(rules))
    if "each" in pay:
        text = f"{pay['each']} from each of the three"
    else:
        text = f"{pay['discarder']} from the discarder, {pay['others']} from each of the other two"
    if system == "mcr":
        source = f"{result.total} from {'everyone' if self_drawn else 'the discarder'}"
        text += f" ({rules.base} base each + {source})" if rules.base else \
            f" (no base payment at the {rules.minimum}-fan minimum, the beginner format: {source})"
    gets = 3 * pay["each"] if "each" in pay else pay["discarder"] + 2 * pay["others"]
    lines.append(f"Pay    {text}; the winner gets {gets}")
    return "\n".join(lines)


# ---------------------------------------------------------------- JSON lines


def score_object(obj: object, system: str, defaults: dict[str, object] | None = None) -> dict[str, object]:
    """Score one JSONL input object for Zung Jung or MCR (see README "Zung Jung and MCR"); `defaults` (minimum,
    payoff, halve_bonus from the command line) stand where the object gives none. They are the stream's system's:
    a line that switches system gets that system's own defaults (MCR's 8-fan minimum, not a Zung Jung 5)."""
    obj = jsonl_object(obj, JSONL_FIELDS)
    if "system" in obj:
        if not isinstance(obj["system"], str):
            raise InputError("field \"system\" must be riichi, zungjung or mcr")
        line_system = system_name(obj["system"])
        if line_system == "riichi":
            raise InputError("this stream scores Zung Jung or MCR: run riichi hands without --system")
        if line_system != system:
            defaults, system = None, line_system
    if system == "mcr":
        given = [f for f in ("payoff", "halve_bonus") if f in obj]
        if given:
            what = "are Zung Jung fields" if len(given) > 1 else "is a Zung Jung field"
            raise InputError(f"{' and '.join(repr(f) for f in given)} {what}; an MCR line has no such field")
    obj = {**(defaults or {}), **obj}
    hand_text, win, melds = hand_fields(obj)
    for f in _BOOL_FIELDS:
        if f in obj and type(obj[f]) is not bool:
            raise InputError(f"field {f!r} must be true or false, not {obj[f]!r}")
    seat, round_ = wind_fields(obj)
    if system == "zungjung" and "round" in obj and wind_index(round_) != 0:
        raise InputError(f"Zung Jung has no table wind (3.1 counts the seat wind only): drop \"round\": {round_!r}")
    flowers = obj.get("flowers", "")
    if not isinstance(flowers, str):
        raise InputError("field \"flowers\" is a tile string like \"1f3g\"")
    minimum = obj.get("minimum")
    if minimum is not None and (not isinstance(minimum, int) or isinstance(minimum, bool)):
        raise InputError(f"field 'minimum' must be a whole number, not {minimum!r}")
    payoff = obj.get("payoff", "standard")
    if not isinstance(payoff, str):
        raise InputError("field \"payoff\" is standard or uniform")
    if "self_drawn" in obj and "tsumo" in obj and obj["self_drawn"] != obj["tsumo"]:
        raise InputError("fields \"self_drawn\" and \"tsumo\" say the same thing: they cannot differ")
    self_drawn = obj.get("self_drawn", obj.get("tsumo", False))
    hand = parse_hand(hand_text, win, [meld_from_json(m) for m in melds])
    result, rules = _score(
        system, hand, self_drawn=self_drawn, seat=wind_index(seat), round_wind=wind_index(round_),
        flowers=tuple(parse_tiles(flowers, allow_bonus=True)), last_tile=obj.get("last_tile", False),
        replacement=obj.get("replacement", False), robbing_quad=obj.get("robbing_quad", False),
        heaven=obj.get("heaven", False), earth=obj.get("earth", False),
        last_of_kind=obj.get("last_of_kind", False), minimum=minimum, payoff=payoff,
        halve_bonus=obj.get("halve_bonus", False),
    )
    return result_json(system, result, self_drawn=self_drawn, payoff=payoff, mcr_base=_base(rules))


def _base(rules: object) -> int:
    """The MCR base payment of these rules (Zung Jung has none)."""
    return getattr(rules, "base", 0)


def bad_input_json(system: str, message: str) -> dict[str, object]:
    """A result line for input that could not be read: every field of a scored line of `system` (as for a hand
    that does not win: no patterns, payment null) plus `bad_input`, so a reader of the stream finds the same
    keys on every line, as riichi's bad-input lines have them."""
    from table.mcr import MCRResult
    from table.zungjung import ZungJungResult

    result_type = ZungJungResult if system == "zungjung" else MCRResult
    return {**result_type(valid=False, error=message).to_json(), "payment": None, "bad_input": True}


def _line_system(obj: object, system: str) -> str:
    """The system a JSONL line asked for (its `system` field, where that names Zung Jung or MCR), else the stream's:
    a bad line then reports the system it was to be scored under."""
    named = obj.get("system") if isinstance(obj, dict) else None
    if not isinstance(named, str):
        return system
    try:
        line_system = system_name(named)
    except InputError:
        return system
    return system if line_system == "riichi" else line_system


def score_stream(lines: IO[str], out: IO[str], *, system: str, defaults: dict[str, object] | None = None) -> int:
    """One result line per non-blank input line. Exit 2 if any line was bad input, else 1 if any hand did
    not win, else 0 (as `jantaku score --jsonl` for riichi)."""
    status = 0
    for line in lines:
        if not line.strip():
            continue
        obj: object = None
        try:
            obj = json.loads(line, object_pairs_hook=unique_fields)
            result = score_object(obj, system, defaults)
            if not result["valid"]:
                status = max(status, 1)
        except json.JSONDecodeError as exc:
            result = bad_input_json(system, f"line is not JSON: {exc.msg} at column {exc.colno}")
            status = 2
        except InputError as exc:
            result = bad_input_json(_line_system(obj, system), str(exc))
            status = 2
        out.write(json.dumps(result, ensure_ascii=False))
        out.write("\n")
    out.flush()
    return status
