"""`jantaku read`, `jantaku score-photo` and `jantaku bench vision`.

Exit codes: 0 read (or scored a win), 1 a legal hand that is not a win, 2 bad input: not an image, no tiles, a
picture that cannot be a legal hand (the message says what was seen).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections import Counter
from dataclasses import replace

from table.cli_options import Once
from table.errors import InputError
from vision.classes import plain_face
from vision.corrections import Corrected, parse_added, parse_fixes, parse_melds, summary, with_corrections
from vision.view import TableView


def register(commands, bench) -> None:
    p = commands.add_parser("read", help="read the tiles on the table from a photo",
                            description="Find every tile in a photo, name it, and group hand, melds, dora and ponds.")
    p.add_argument("photo", help="photo: JPEG, HEIC, PNG, WebP, AVIF, ... (turned upright as the phone shows it)")
    p.add_argument("--json", action="store_true", help="print one JSON object (schema in README)")
    p.add_argument("--overlay", metavar="OUT.jpg", action=Once,
                   help="write the photo with every box and tile name drawn")
    p.add_argument("--models", help=argparse.SUPPRESS)
    p.set_defaults(func=run_read)

    s = commands.add_parser("score-photo", help="read a winning hand from a photo and score it",
                            description="Read the hand, melds, winning tile and dora indicators from a photo, then "
                            "score them. The photo cannot show how the hand was won: give the flags as for score.")
    s.add_argument("photo", help="photo: JPEG, HEIC, PNG, WebP, AVIF, ... (turned upright as the phone shows it)")
    from table.score_cli import add_situation_arguments

    add_situation_arguments(s, "dora indicator(s), in place of those read (out of the picture, or misread: a blank "
                            "white dragon looks like a back)")
    s.add_argument("--win", metavar="TILE", action=Once, help="the winning tile, one of the hand's, when the photo "
                   "does not set it apart (the hand laid in one row)")
    s.add_argument("--add", action="append", default=[], metavar="TILES",
                   help="tiles of the concealed hand the photo does not show (a finger across the row, a tile out of "
                   "the picture), e.g. 4m, or 45m for two; meld1: to meld4: before one tile makes that pon a kan, its "
                   "fourth tile not seen, e.g. meld2:5z (repeatable)")
    s.add_argument("--meld", action="append", default=[], metavar="KIND:TILES[:SOURCE]",
                   help="a called meld the photo does not show (out of the picture, not found), after those read, as "
                   "for score: e.g. added-kan:1111z (repeatable)")
    s.add_argument("--fix", action="append", default=[], metavar="READ=TRUE",
                   help="a tile read as READ is really TRUE, e.g. 9s=5z, or back=5z for a tile read face down "
                   "(repeatable, one tile each); hand:, win: or meld1: to meld4: before it says where, when READ was "
                   "read in more than one place")
    s.add_argument("--json", action="store_true", help="print one JSON object: the score and what was read")
    s.add_argument("--overlay", metavar="OUT.jpg", action=Once,
                   help="write the photo with every box and tile name drawn")
    s.add_argument("--models", help=argparse.SUPPRESS)
    s.set_defaults(func=run_score_photo)

    b = bench.add_parser("vision", help="tile recognition accuracy and speed (synthetic and real photos)")
    b.add_argument("--synthetic", type=int, default=40, help="held-out rendered scenes to score (default 40)")
    b.add_argument("--seed", type=int, default=9, help="seed of the held-out scenes (default 9; training used 1-8 "
                   "and 10-14)")
    b.add_argument("--mix", type=int, default=1, choices=tuple(range(1, 12)),
                   help="scene mix of the held-out set: 1 = round 1 (as in the model card), 2 = round 2 (procedural "
                   "tile sets, more red fives and sideways tiles, diagonal views), 3 = round 3 (also standing hands "
                   "seen low from the player's seat), 4 = 3 without white backs, 5 = 3 with the dead wall clear, "
                   "6 = 5 with a quarter of phones held at a slant, 7 = 6 with point sticks and dice on the table "
                   "(the same scenes and labels as 6), 8 = 7 with the winning tile often pushed in front of the "
                   "hand, 9 = 8 with the live wall left on most whole tables, 10 = 7 with it on half, 11 = 10 with a "
                   "fifth of the close-ups framed round a few tiles (round 10); default 1")
    b.add_argument("--share", type=_share, default=1.0,
                   help="render the held-out scenes at 12 MP and shrink each picture to this share of the frame "
                   "(0.1 to under 1; the camera higher or a wider lens: tiles a few pixels wide to the detector); "
                   "1, the default, renders them as usual")
    b.add_argument("--photos", default=None,
                   help="labels.json of real photos (default: shared/photos beside the clone)")
    b.add_argument("--repeat", type=int, default=3, help="timing runs on the 12-megapixel photo (default 3; 0: no "
                   "timing)")
    b.add_argument("--peer", action="store_true", help="also run PyPI mahjong-detector when importable")
    b.add_argument("--json", action="store_true")
    b.add_argument("--models", help=argparse.SUPPRESS)
    b.set_defaults(func=run_bench)


def _share(text: str) -> float:
    """`bench vision --share`: a share of the frame the bench can shrink a 12-MP scene to."""
    try:
        share = float(text)
    except ValueError:
        share = 0.0
    if not 0.1 <= share <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is no share of the frame from 0.1 to 1")
    return share


def read_photo(path: str, models: str | None = None) -> tuple[TableView, object]:
    """The photo read, with what its file says (an animation, a file cut short) before the reading's own notes."""
    from vision.photo import open_photo
    from vision.recognizer import Recognizer, read_view

    with _decoder_quiet():
        photo = open_photo(path)
    view = read_view(Recognizer(models), photo.image)
    if photo.notes:
        view = replace(view, warnings=(*photo.notes, *view.warnings))
    return view, photo.image


@contextlib.contextmanager
def _decoder_quiet():
    """The process's stderr shut while a photo is decoded: libjpeg prints its warnings ("Corrupt JPEG data: ...")
    to it directly, past Python and OpenCV's log level, before our own message says the same plainly. Only for the
    command line: the table device's log keeps them."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def view_faults(view: TableView) -> list[str]:
    """What makes the picture impossible: no tiles, or more than four copies of a tile."""
    if not view.tiles:
        return ["no tiles found in the photo (is the table in the picture, and lit?)"]
    counts = Counter(plain_face(t.tile) for t in view.tiles if t.tile != "back")
    return [f"{n} copies of {tile} seen; a set has only 4" for tile, n in sorted(counts.items()) if n > 4]


def hand_faults(view: TableView) -> list[str]:
    """More than four copies of a tile among the hand, its melds, its winning tile and the dora indicators: the
    tiles a score is read from cannot be as they show. A fifth copy that needs a discard too is no refusal (a warning
    from `count_checks`): on a whole table a misread pond tile makes one as often, and the hand may read right."""
    h = view.hand
    names = [*h.concealed, *([h.win] if h.win else []), *(t for m in h.melds for t in m.tiles), *view.dora_indicators]
    counts = Counter(plain_face(t) for t in names if t != "back")
    return [f"{n} copies of {tile} in the hand and dora indicators; a set has only 4"
            for tile, n in sorted(counts.items()) if n > 4]


def view_doubts(view: TableView) -> list[str]:
    """What is unlikely but possible: more than one red five of a suit (most sets have one, some two of 5p)."""
    reds = Counter(t.tile for t in view.tiles if t.tile[0] == "0")
    return [f"{n} red fives {tile} seen; a set usually has one" for tile, n in sorted(reds.items()) if n > 1]


def hand_count_doubts(view: TableView) -> list[str]:
    """A hand row that no hand can be (13 tiles, or 14 with the winning tile; each meld counted as three): `read`
    says so, as `score-photo` refuses it."""
    h = view.hand
    shown = len(h.concealed) + 3 * len(h.melds) + (h.win is not None)
    if not (h.concealed or h.melds) or shown in (13, 14):
        return []
    return [f"the hand shows {shown} tiles (each meld counted as three, the winning tile included): a hand has 13, "
            "and 14 with its winning tile (tiles out of the picture, or one row read as two?)"]


def count_checks(view: TableView) -> list[str]:
    """Impossible or unlikely counts of the tiles read (none when no tile was read: that is a fault of its own)."""
    return (view_faults(view) + view_doubts(view)) if view.tiles else []


def with_table_checks(view: TableView) -> TableView:
    """Impossible or unlikely counts over the whole table (hand, dora and ponds together) as warnings: the hand may
    still score right, but one of those tiles is misread, so the player should look before recording. Impossible
    counts within the scored tiles themselves stop the scoring (`validate_hand`)."""
    notes = tuple(f"{c} (hand, dora and ponds together): one of them is misread; check the tiles with that name"
                  for c in count_checks(view))
    return replace(view, warnings=view.warnings + notes) if notes else view


def with_win_given(view: TableView, given: str | None) -> TableView:
    """The hand with the winning tile named on the command line taken out of its row, saying so: a hand laid in one
    row shows no winning tile, and the layout takes its rightmost."""
    from table.tiles import parse_tile

    if not given:
        return view
    h = view.hand
    try:
        tile = str(parse_tile(given))
    except InputError as exc:
        raise InputError(f"--win {given}: {exc}") from None
    placed = len(h.concealed_indices) == len(h.concealed)  # where each tile lies, unless the view does not say
    row = [*zip(h.concealed, h.concealed_indices if placed else [None] * len(h.concealed), strict=True)]
    row += [(h.win, h.win_index)] if h.win else []
    at = next((k for k in range(len(row) - 1, -1, -1) if row[k][0] == tile), None)
    if at is None:
        raise InputError(f"--win {given}: the hand read holds no {tile} ({' '.join(t for t, _ in row) or 'no tiles'}); "
                         f"a winning tile the photo did not show is given with --add {tile} --win {tile}")
    (win, win_index), rest = row[at], row[:at] + row[at + 1:]
    indices = tuple(i for _, i in rest) if placed else ()
    hand = replace(h, concealed=tuple(t for t, _ in rest), concealed_indices=indices, win=win, win_index=win_index,
                   win_sideways=False)
    note = f"winning tile as given: {tile} (read: {h.win or 'none'})"
    return replace(view, hand=hand, warnings=(*view.warnings, note))


def with_dora_given(view: TableView, given: list[str]) -> TableView:
    """The dora indicators given on the command line in place of those read, saying so; with none given and none
    read, a note: every hand has at least one, so a score without is only right when that is so."""
    from table.tiles import parse_tiles, to_mpsz

    read = " ".join(view.dora_indicators) or "none"
    if given:
        tiles = []
        for text in given:
            try:
                tiles += parse_tiles(text)
            except InputError as exc:
                raise InputError(f"--dora {text}: {exc}") from None
        note = f"dora indicators as given: {to_mpsz(tiles, sort=False) or 'none'} (read from the photo: {read})"
        return replace(view, dora_indicators=tuple(map(str, tiles)), dora_indices=(),
                       warnings=(*view.warnings, note))
    if not view.dora_indicators and view.tiles:  # with no tile at all, that is what the player is told
        note = "no dora indicator read from the photo: counted as none; give them with --dora if there are any"
        return replace(view, warnings=(*view.warnings, note))
    return view


def with_kan_hint(view: TableView) -> TableView:
    """A note, when a tile beside the melds belongs to none and is the face of a pon beside it (a haku's blank face
    read as a back counts), on how to make that pon the kan it may be: the layout cannot tell a kan's fourth tile
    lying apart from a stray tile, and a pon scores fewer fu than a kan, with no refusal to show it."""
    from vision.layout.melds import stray_tile

    strays = {t for w in view.warnings if (t := stray_tile(w))}
    strays |= {"5z"} if "back" in strays else set()
    fits = [f"--add meld{k + 1}:{plain_face(m.tiles[0])}" for k, m in enumerate(view.hand.melds)
            if m.kind == "pon" and plain_face(m.tiles[0]) in {plain_face(t) for t in strays}]
    if not fits:
        return view
    note = f"a pon may be a kan whose fourth tile lies apart: if it is, give that tile with {' or '.join(fits)}"
    return replace(view, warnings=(*view.warnings, note))


def with_riichi_seen(view: TableView, args: argparse.Namespace) -> TableView:
    """A note when the winner's own pond shows a riichi discard lying sideways but the hand is scored without riichi:
    the photo cannot say how the hand was won, but this is most often a flag forgotten."""
    near = next((p for p in view.ponds if p.seat == "near"), None)
    if near is None or near.riichi is None or args.riichi or args.double_riichi \
            or any(m.kind != "closed-kan" for m in view.hand.melds):
        return view
    note = ("the winner's pond shows a riichi discard (lying sideways), but --riichi was not given: counted "
            "without riichi")
    return replace(view, warnings=(*view.warnings, note))


def with_set_red_fives(view: TableView, rules) -> TableView:
    """The view's hand and dora indicators with red fives as these rules count them: those the rules' set does not
    hold made plain (`table.hand.plain_red_fives`), those a closed kan of fives hides face down named
    (`with_hidden_red_fives`), saying so."""
    from table.hand import plain_red_fives

    h = view.hand
    groups, notes = plain_red_fives([h.concealed, (h.win,) if h.win else (), *(m.tiles for m in h.melds),
                                     view.dora_indicators], rules)  # an indicator's red five is worth nothing
    if notes:
        concealed, win, *melds, dora = groups
        hand = replace(h, concealed=concealed, win=win[0] if win else None,
                       melds=tuple(replace(m, tiles=t) for m, t in zip(h.melds, melds, strict=True)))
        view = replace(view, hand=hand, dora_indicators=dora, warnings=(*view.warnings, *notes))
    return with_hidden_red_fives(view, rules)


def with_hidden_red_fives(view: TableView, rules) -> TableView:
    """The view with the red fives a closed kan of fives hides face down named (`table.hand.name_hidden_red_fives`),
    saying so: a photo shows the kan's two middle tiles only."""
    from table.hand import Meld, name_hidden_red_fives
    from table.tiles import parse_tile

    melds, notes = [], []
    for m in view.hand.melds:
        if m.kind == "closed-kan" and "back" not in m.tiles:
            kan = name_hidden_red_fives(Meld(m.kind, tuple(map(parse_tile, m.tiles))), rules.red_fives)
            tiles = tuple(map(str, kan.tiles))
            if tiles != m.tiles:
                notes.append(f"the closed kan {''.join(m.tiles)} holds a red five face down under these rules "
                             f"({rules.title}): read as {''.join(tiles)}, counted as aka dora")
                m = replace(m, tiles=tiles)
        melds.append(m)
    return replace(view, hand=replace(view.hand, melds=tuple(melds)), warnings=(*view.warnings, *notes)) \
        if notes else view


def describe(view: TableView, unsure: str | None = None) -> str:
    """The reading as text; `unsure`: the Unsure line when the view's own cannot say it (tiles the player added,
    which have no place in the photo, `vision.corrections.Corrected.unsure`)."""
    from vision.rereading import unsure_tiles

    h = view.hand
    melds = "  ".join(f"[{m.kind}:{''.join(m.tiles)}{':' + m.source if m.source else ''}]" for m in h.melds)
    faces = sum(t.tile != "back" for t in view.tiles)
    lines = [f"Seen   {len(view.tiles)} tiles ({faces} face up, {len(view.tiles) - faces} face down)",
             f"Hand   {' '.join(h.concealed) or '-'}  {melds + '  ' if melds else ''}win {h.win or '?'}"
             f"{' (sideways)' if h.win_sideways else ''}",
             f"Dora   indicators {' '.join(view.dora_indicators) or '-'}"]
    unsure = unsure_tiles(view) if unsure is None else unsure
    if unsure:
        lines.append(f"Unsure {unsure}")
    for p in view.ponds:
        tiles = [f"{t}*" if k == p.riichi else t for k, t in enumerate(p.tiles)]
        lines.append(f"Pond   {p.seat:<6} {' '.join(tiles)}{'   (* riichi)' if p.riichi is not None else ''}")
    lines += [f"Note   {w}" for w in view.warnings]
    return "\n".join(lines)


def _check_overlay(path: str | None, photo: str) -> None:
    """Where the overlay goes, before the photo is read: a name OpenCV cannot write, or a folder that is not there,
    would otherwise throw the reading away, and the photo's own name would draw over the player's only copy."""
    import cv2

    if not path:
        return
    if os.path.exists(path) and os.path.exists(photo) and os.path.samefile(path, photo):
        raise InputError(f"the overlay {path} is the photo itself: drawing on it would replace the photo; "
                         "give the overlay another name")
    folder = os.path.dirname(path) or "."
    if not cv2.haveImageWriter(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise InputError(f"cannot write the overlay to {path} (use a .jpg or .png name in a writable folder)")


def _write_overlay(path: str | None, img, view: TableView) -> None:
    if not path:
        return
    import cv2

    from vision.photo import draw_overlay

    try:
        written = cv2.imwrite(path, draw_overlay(img, view))
    except cv2.error:  # a name with no image extension OpenCV knows
        written = False
    if not written:
        raise InputError(f"cannot write the overlay to {path} (use a .jpg or .png name in a writable folder)")


def run_read(args: argparse.Namespace) -> int:
    _check_overlay(args.overlay, args.photo)
    view, img = read_photo(args.photo, args.models)
    _write_overlay(args.overlay, img, view)
    checks = (*(f"{c}: one of them is misread" for c in count_checks(view)), *hand_count_doubts(view))
    view = replace(view, warnings=view.warnings + checks) if checks else view
    faults = hand_faults(view) if view.tiles else view_faults(view)
    print(json.dumps(view.to_json(), ensure_ascii=False) if args.json else describe(view))
    if faults:
        raise InputError("; ".join(faults))
    return 0


def hand_from_view(view: TableView):
    """The scoring engine's Hand from what was read; InputError saying what is missing."""
    from table.hand import Hand, Meld
    from table.tiles import parse_tile

    h = view.hand
    problems = [] if view.tiles else view_faults(view)  # counts: of the scored tiles in validate_hand, else checks
    if not h.concealed and not h.melds:
        problems.append("no hand row found")
    shown = len(h.concealed) + 3 * len(h.melds)
    if h.win is None and shown == 13:
        problems.append("no winning tile: set it apart to the right of the hand; if it is, it was not found "
                        "(retake the photo with more of the table round the hand)")
    elif h.win is None and (h.concealed or h.melds):
        problems.append(f"the hand shows {shown} tiles with each meld counted as three, and no winning tile set "
                        "apart: a winning hand shows 13 and the winning tile (tiles out of the picture, or not found?)")
    bad = [m for m in h.melds if m.kind == "unknown"]
    problems += [f"the tiles {' '.join(m.tiles)} beside the hand make no meld" for m in bad]
    face_down = h.concealed.count("back")
    if face_down:
        problems.append(f"{face_down} tile{'s' if face_down > 1 else ''} of the hand read as face down (a blank "
                        "white dragon?): name them with --fix back=5z (or the tile it is), or retake the photo closer "
                        "(a tile under a finger or a card reads as face down too)")
    if problems:
        raise InputError("cannot score the photo: " + "; ".join(problems))
    melds = []
    for m in h.melds:
        tiles = [t for t in m.tiles if t != "back"]
        if m.kind == "closed-kan" and len(tiles) == 2:
            tiles = tiles * 2  # the two backs hide the same tile
        melds.append(Meld(m.kind, tuple(parse_tile(t) for t in tiles), m.source))
    assert h.win is not None
    return Hand(tuple(parse_tile(t) for t in h.concealed), parse_tile(h.win), tuple(melds))


def _score(view: TableView, args: argparse.Namespace, rules):
    from table.hand import validate_hand
    from table.score_cli import FLAGS, score_given
    from table.scoring import Situation
    from table.tiles import parse_tile, parse_tiles, wind_index

    hand = hand_from_view(view)
    dora = tuple(parse_tile(t) for t in view.dora_indicators)
    ura = tuple(t for v in args.ura for t in parse_tiles(v))
    validate_hand(hand, dora, ura, rules)
    situation = Situation(**{f: getattr(args, f) for f in FLAGS}, seat_wind=wind_index(args.seat),
                          round_wind=wind_index(args.round), dora_indicators=dora, ura_indicators=ura,
                          honba=args.honba, riichi_sticks=args.sticks)
    return hand, situation, score_given(hand, situation, rules)


def score_view(view: TableView, args: argparse.Namespace, rules, corrected: Corrected | None = None):
    """(the view scored, Hand, Situation, ScoreResult): the view as read (through the `with_*` checks above), or, when
    its hand makes no winning shape, the first of its `second_readings` that does and scores; InputError, saying what
    the photo shows, when the hand as read cannot be scored and no second reading can. `corrected`: the player's
    corrections, made to `view` already (`vision.corrections`): their word stands, so no tile is read again, and a
    refusal names them."""
    from vision.layout import NOT_SET_APART, winning_shape
    from vision.rereading import second_readings

    view = with_win_given(view, args.win)
    view = with_set_red_fives(with_riichi_seen(with_dora_given(with_table_checks(view), args.dora), args), rules)
    view = with_kan_hint(view)
    scored, error = None, None
    try:
        scored = _score(view, args, rules)
    except InputError as exc:
        error = exc
    if scored is not None and scored[2].valid and not args.win \
            and any(w.startswith(NOT_SET_APART) for w in view.warnings):
        view = with_other_wins(view, args, rules, scored[2])
    corrections = corrected.corrections if corrected else ()
    if (scored is None or not winning_shape(view.hand)) and not corrections:
        for guess in second_readings(view):
            if winning_shape(guess.hand):
                guess = with_set_red_fives(guess, rules)  # a closed kan read again may hide a red five
                with contextlib.suppress(InputError):
                    return (guess, *_score(guess, args, rules))
    if scored is None:
        said = f" (the hand as corrected: {summary(corrections)})" if corrections else ""
        raise InputError(f"{error}{said}{_correction_hint(view, error)}\nWhat the photo shows:\n"
                         f"{describe(view, corrected and corrected.unsure)}") from None
    return (view, *scored)


def _correction_hint(view: TableView, error: InputError | None) -> str:
    """How the player gives what the photo did not show or showed wrong, for a hand that cannot be scored as read: a
    photo retaken is not always to hand (the tiles are swept), and a refusal that names no option leaves the player
    to find them in the README. Nothing where no option mends it (a tile too many in the row), and nothing for tiles
    read face down, whose own message names --fix."""
    from vision.layout import HIDDEN

    h = view.hand
    if not (h.concealed or h.melds) or "back" in h.concealed:
        return ""
    shown = len(h.concealed) + 3 * len(h.melds)
    if h.win is None:
        if shown == 14:
            return "; name the winning tile, one of the tiles read, with --win TILE"
        if shown == 13:
            return "; a winning tile that lies apart but was not found is given with --add TILE --win TILE"
        if shown < 13:
            return ("; tiles the photo did not show are given with --add TILES, and the winning tile named with --win "
                    "TILE (e.g. --add 4m7p --win 7p)")
        return ""
    hints = []
    if "wrong tile count" in str(error) and shown < 13:
        hints.append("tiles hidden in the photo (a finger across the row) are given with --add, e.g. --add 4m"
                     if any(HIDDEN in w for w in view.warnings) else
                     "tiles the photo did not show are given with --add TILES (e.g. --add 4m), a meld with --meld "
                     "KIND:TILES (e.g. --meld pon:777z), a tile read as another with --fix READ=TRUE (e.g. --fix "
                     f"9s=5z), and the winning tile, if not the {h.win} read, with --win TILE")
    unknown = [k + 1 for k, m in enumerate(h.melds) if m.kind == "unknown"]
    if unknown:
        hints.append(f"if a tile of it is read as another, give it with --fix meld{unknown[0]}:READ=TRUE (hand tiles "
                     "taken for a meld cannot be moved: retake the photo with a gap before the melds)")
    return "".join(f"; {hint}" for hint in hints)


def with_other_wins(view: TableView, args: argparse.Namespace, rules, result) -> TableView:
    """A note with the price had another tile of a hand laid in one row won, where it differs from the price scored
    (the wait decides fu and yaku such as pinfu), so the player can name the winning tile with --win."""
    h = view.hand
    prices: dict[str, list[str]] = {}
    for tile in dict.fromkeys(h.concealed):
        with contextlib.suppress(InputError):
            other = _score(with_win_given(view, tile), args, rules)[2]
            if other.valid and (other.total, other.han, other.fu) != (result.total, result.han, result.fu):
                prices.setdefault(f"{other.total:,} ({other.han} han {other.fu} fu)", []).append(tile)
    if not prices:
        return view
    others = "; ".join(f"{' '.join(tiles)} {price}" for price, tiles in prices.items())
    note = (f"had another tile won, the price differs: {others}; name the winning tile with --win (scored: {h.win}, "
            f"{result.total:,})")
    return replace(view, warnings=(*view.warnings, note))


def _check_flags(args: argparse.Namespace) -> None:
    """The typed options, before the photo is read (a second or two): a mistyped wind or tile, flags that cannot go
    together (ippatsu without riichi), a count out of range or an overlay that cannot be written say so at once."""
    from table.score_cli import FLAGS
    from table.scoring import Situation, situation_faults
    from table.tiles import parse_tiles, wind_index

    for flag, texts in (("--dora", args.dora), ("--ura", args.ura), ("--win", [args.win] if args.win else [])):
        for text in texts:
            try:
                parse_tiles(text)
            except InputError as exc:
                raise InputError(f"{flag} {text}: {exc}") from None
    parse_added(args.add)
    parse_fixes(args.fix)
    parse_melds(args.meld)
    faults = situation_faults(Situation(**{f: getattr(args, f) for f in FLAGS}, seat_wind=wind_index(args.seat),
                                        round_wind=wind_index(args.round), honba=args.honba,
                                        riichi_sticks=args.sticks))
    if faults:
        raise InputError("; ".join(faults))
    _check_overlay(args.overlay, args.photo)


def run_score_photo(args: argparse.Namespace) -> int:
    from table.score_cli import render, resolve_rules

    rules = resolve_rules(args.rules)
    if rules.system != "riichi":  # refused before the photo is read, as any other bad option
        raise InputError(f"{rules.title} is not riichi: score-photo scores riichi hands; give the tiles to "
                         f"`jantaku score --system {rules.system}`")
    _check_flags(args)
    view, img = read_photo(args.photo, args.models)
    _write_overlay(args.overlay, img, view)
    corrected = None
    try:
        corrected = with_corrections(view, parse_added(args.add), parse_fixes(args.fix), parse_melds(args.meld))
        view = corrected.view
        view, hand, situation, result = score_view(view, args, rules, corrected)
    except InputError as exc:
        if args.json:  # what was read, for a program to show; the reason goes to stderr as well
            print(json.dumps({"valid": False, "error": str(exc).split("\nWhat the photo shows:")[0],
                              "read": view.to_json(), "corrections": _corrections_json(corrected)},
                             ensure_ascii=False))
        raise
    if args.json:
        out = result.to_json()
        out["read"] = view.to_json()
        out["corrections"] = _corrections_json(corrected)
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(describe(view, corrected.unsure))
        print()
        print(render(hand, situation, rules, result))
    return 0 if result.valid else 1


def _corrections_json(corrected: Corrected | None) -> list[dict]:
    """What the player changed in the hand read (`--add`, `--fix`), so that a price never hides it."""
    return [c.to_json() for c in corrected.corrections] if corrected else []


def run_bench(args: argparse.Namespace) -> int:
    from vision.bench import run

    report = run(args)
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: jantaku read PHOTO")
