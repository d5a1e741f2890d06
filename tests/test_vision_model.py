"""The committed ONNX recognizer (onnxruntime only, no torch) on fixed rendered scenes and on shared real photos.

The floors are what the committed model measurably reaches (models/MODEL_CARD.md), a little below the
measured values so a re-export of the same weights passes; raise them when a better model is committed. The model is
committed, so a checkout without it fails here (no skip). The rendered scenes need the FluffyStuff art and the real
photos need `shared/` beside the clone (as in CI); those skip, saying so, only when shared/ is absent.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cli import main
from device.config import SAMPLE_PHOTOS
from vision.art import DEFAULT_ART, SHARED
from vision.bench import HAND_PARTS, _ours, closeup_shares, real_subset, seen_parts, shrunk_in_frame, truth_parts
from vision.recognizer import MODELS, Recognizer, read_view, unturn_box
from vision.synth import make_scene

PHOTOS = SHARED / "photos" / "labels.json"
SCENE_SEEDS = (101, 102, 103, 104)
# Close-ups this model reads exactly (hand, winning tile, melds, dora), picked from seeds 101-120 when it was
# committed (11 of 20 read exactly then and with round 8, 12 with session 5's layout; these five in every model
# since; MODEL_CARD.md has the rates): a regression breaks them.
EXACT_SEEDS = (101, 106, 108, 113, 118)

# measured with the committed models (round 8, tests/bench/vision_floors.py): located 1.000, read right 1.000 of the
# 76 tiles of the four scenes; 25 of 25 labelled tiles of lx01 + th01. Floors sit a little below.
SYNTHETIC_LOCATED_FLOOR = 0.98
SYNTHETIC_RECALL_FLOOR = 0.96
REAL_RECALL_FLOOR = 0.92

needs_art = pytest.mark.skipif(not (DEFAULT_ART / "Regular" / "Man1.png").exists(),
                               reason=f"FluffyStuff tile art not found at {DEFAULT_ART} (shared/ beside the clone)")


def test_the_model_is_committed() -> None:
    meta = json.loads((MODELS / "recognizer.json").read_text())
    for file in [meta["detector"]["file"], *meta["classifier"]["files"]]:
        path = MODELS / file
        assert path.stat().st_size > 1_000_000, f"{path} is missing or truncated (a Git LFS pointer?)"
    assert meta["detector"]["classes"] == ["face_v", "face_h", "back_v", "back_h"]
    assert len(meta["classifier"]["classes"]) == 59


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def test_an_unsure_crop_is_read_again_cut_tighter_and_wider(recognizer: Recognizer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop of noise is no tile the ensemble is sure of: its reading averages the three cuts; a crop it is sure
    of (every crop, with the bar at 0) is read once."""
    from vision import recognizer as module
    from vision.recognizer import MARGIN, RECUT_MARGINS, UNSURE, Detection

    img = np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8)
    det = Detection((50.0, 40.0, 110.0, 120.0), 0, 0.9)
    cuts = [recognizer._ensemble(img, [det], (m,))[0] for m in (MARGIN, *RECUT_MARGINS)]
    assert cuts[0].max() < UNSURE
    assert not np.allclose(cuts[0], cuts[1])
    assert np.allclose(recognizer._ensemble(img, [det], RECUT_MARGINS)[0], np.mean(cuts[1:], axis=0), atol=1e-6)
    name, p, _ = recognizer.classify(img, [det])[0]
    assert p == pytest.approx(float(np.mean(cuts, axis=0)[recognizer.cls_names.index(name)]), abs=1e-5)
    monkeypatch.setattr(module, "UNSURE", 0.0)
    name, p, _ = recognizer.classify(img, [det])[0]
    assert p == pytest.approx(float(cuts[0][recognizer.cls_names.index(name)]), abs=1e-5)


def test_a_tile_keeps_its_next_likeliest_faces_with_their_odds(recognizer: Recognizer,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A face and the same face turned round are one face to the hand; a back is no alternative to a face, nor is a
    face less than ALTERNATIVE_ODDS as likely; a tile read face down keeps none."""
    from vision.recognizer import ALTERNATIVE_ODDS, Detection

    row = np.zeros(len(recognizer.cls_names), np.float32)
    for c, q in (("6m", 0.5), ("6m_r", 0.1), ("9m", 0.2), ("9m_r", 0.05), ("back", 0.1), ("1z", 0.04),
                 ("2z", 0.6 * ALTERNATIVE_ODDS * 0.9)):
        row[recognizer.cls_names.index(c)] = q
    monkeypatch.setattr(recognizer, "_ensemble", lambda img, dets, margins=None: np.tile(row, (len(dets), 1)))
    img = np.zeros((200, 200, 3), np.uint8)
    face_up, face_down = Detection((50.0, 40.0, 110.0, 120.0), 0, 0.9), Detection((50.0, 40.0, 110.0, 120.0), 2, 0.9)
    (name, p, others), down = recognizer.classify(img, [face_up, face_down])
    assert (name, p) == ("6m", pytest.approx(0.5))
    assert [o for o, _ in others] == ["9m", "1z"]
    assert [odds for _, odds in others] == [pytest.approx(0.25 / 0.6), pytest.approx(0.04 / 0.6)]
    assert down == ("back", 0.9, ())


def test_the_classifiers_of_the_ensemble_vote_together(recognizer: Recognizer, tmp_path: Path) -> None:
    """Every classifier listed is loaded and their probabilities are averaged; a folder naming one `file` (as
    earlier exports did) still loads."""
    from vision.crops import upright_crop
    from vision.recognizer import Detection, _probabilities

    meta = json.loads((MODELS / "recognizer.json").read_text())
    files = meta["classifier"]["files"]
    assert len(recognizer.classifiers) == len(files)
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (200, 200, 3), dtype=np.uint8)
    det = Detection((50.0, 40.0, 110.0, 120.0), 0, 0.9)  # face up, upright
    crop = upright_crop(img, det.box, False, recognizer.cls_size)
    x = crop[None, :, :, ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    each = [_probabilities(s, x) for s in recognizer.classifiers]
    assert np.allclose(recognizer._ensemble(img, [det]), np.mean(each, axis=0), atol=1e-6)

    meta["classifier"] = {k: v for k, v in meta["classifier"].items() if k != "files"} | {"file": files[-1]}
    for file in (meta["detector"]["file"], files[-1]):
        (tmp_path / file).symlink_to(MODELS / file)
    (tmp_path / "recognizer.json").write_text(json.dumps(meta))
    single = Recognizer(tmp_path)
    assert len(single.classifiers) == 1
    assert np.allclose(_probabilities(single.classifiers[0], x), each[-1], atol=1e-5)


@needs_art
def test_reads_fixed_rendered_scenes(recognizer: Recognizer) -> None:
    located, correct, _ = closeup_shares(recognizer, SCENE_SEEDS)
    assert located >= SYNTHETIC_LOCATED_FLOOR
    assert correct >= SYNTHETIC_RECALL_FLOOR


@needs_art
@pytest.mark.parametrize("seed", EXACT_SEEDS)
def test_reads_fixed_rendered_hands_exactly(recognizer: Recognizer, seed: int) -> None:
    scene = make_scene(seed, kind="closeup", fonts=False, mix=1)
    view = read_view(recognizer, scene.image)
    seen, truth = seen_parts(view), truth_parts(scene.truth)
    assert {k: seen[k] for k in HAND_PARTS} == {k: truth[k] for k in HAND_PARTS}


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
def test_real_photos_floor(recognizer: Recognizer) -> None:
    result = real_subset(PHOTOS, ("lx01", "th01"), _ours(recognizer))
    assert result["recall"] >= REAL_RECALL_FLOOR


def _score_real_photo(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict, dict]:
    """`jantaku score-photo --json` on a shared photo, with that photo's labelled rows."""
    rows = {r["name"]: r["tiles"] for r in json.loads(PHOTOS.read_text())["images"][name]["rows"]}
    code = main(["score-photo", str(PHOTOS.parent / f"{name}.jpg"), "--json"])
    return code, json.loads(capsys.readouterr().out), rows


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
def test_a_real_photo_of_a_winning_hand_scores(capsys: pytest.CaptureFixture[str]) -> None:
    """lx01, photo to points: a blank white dragon, an added kan (two sideways tiles stacked), two dora indicators
    in a dead wall of lilac backs, the winning red five lying tilted on the far side of the hand."""
    code, out, rows = _score_real_photo("lx01", capsys)
    hand = out["read"]["hand"]
    assert hand["concealed"] + [t for m in hand["melds"] for t in m["tiles"]] == rows["hand_and_meld"]
    assert [m["kind"] for m in hand["melds"]] == ["added-kan"]
    assert [hand["win"]] == rows["winning_tile"] and out["read"]["dora_indicators"] == rows["dora_indicators"]
    assert code == 0 and (out["han"], out["fu"], out["total"]) == (10, 50, 24000)


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
def test_a_real_photo_under_warm_light_reads_its_blank_haku(capsys: pytest.CaptureFixture[str]) -> None:
    """lx04: thirteen orphans under warm glare, seen low, the next player's tiles touching the hand's end. Its haku
    (a blank face, yellowed by the lamp) read as a back until the photo was white-balanced to the tiles' faces."""
    code, out, rows = _score_real_photo("lx04", capsys)
    hand = out["read"]["hand"]
    assert hand["concealed"] + [hand["win"]] == rows["hand"]
    assert not any(w.startswith("took the tile read face down") for w in out["read"]["warnings"])
    assert code == 0 and out["yaku"] == [{"name": "Kokushi Musou", "han": 13}] and out["total"] == 48000


def _cool(img: np.ndarray) -> np.ndarray:
    return np.clip(img * np.array([1.2, 1.0, 0.8]), 0, 255).astype(np.uint8)


def _sharpened(img: np.ndarray) -> np.ndarray:
    return cv2.addWeighted(img, 2.0, cv2.GaussianBlur(img, (0, 0), 2.0), -1.0, 0)


def _held_askew(img: np.ndarray) -> np.ndarray:
    """Turned 30 degrees about the lens on a canvas that holds it all, as bench_camera_shifts.py `roll30` warps it:
    the tilted winning red five comes back as two like readings, one tile (`vision.layout.rows._same_reading`)."""
    h, w = img.shape[:2]
    c, s = np.cos(np.radians(30)), np.sin(np.radians(30))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([(x * c - y * s, x * s + y * c) for x, y in src])
    dst -= dst.min(axis=0)
    size = tuple(int(v) for v in np.ceil(dst.max(axis=0)))
    return cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), size, borderValue=(114, 114, 114))


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
@pytest.mark.parametrize("camera", [_cool, _sharpened, _held_askew])
def test_a_real_photo_as_other_phones_take_it_reads_and_scores_as_taken(
        camera, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """lx01 as other phones take it (tests/bench/bench_camera_shifts.py `cool`, `sharpen`): set to daylight
    under a warm lamp's opposite (blue up 20 %, red down 20 %), the three blank hakus of its hand turn the blue of
    a light back, and over-sharpened they lose the soft shading that tells a face; either way the detector reads
    them as backs, unless the photo is white-balanced to the tiles' faces first and a back of the faces' colour
    is taken for the blank face it is."""
    from vision.photo import load_photo

    code, want, rows = _score_real_photo("lx01", capsys)
    path = tmp_path / "other.png"
    cv2.imwrite(str(path), camera(load_photo(PHOTOS.parent / "lx01.jpg")))
    assert main(["score-photo", str(path), "--json"]) == code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["read"]["hand"] == want["read"]["hand"]
    assert (out["han"], out["fu"], out["total"]) == (want["han"], want["fu"], want["total"]) == (10, 50, 24000)
    assert sum(t["tile"] == "0p" for t in out["read"]["tiles"]) == 1


def test_a_colour_cast_is_taken_off_to_the_tiles_faces() -> None:
    """The sure face-up tiles' blank ground sets the gains; a haku or a back (what a cast confuses) does not, and
    too few sure tiles, or faces already within CAST of grey-white, leave the photo as it is."""
    from vision.recognizer import CAST, _face_colour, _white_balanced
    from vision.view import SeenTile

    table = np.full((200, 700, 3), (60, 110, 40), np.uint8)
    tiles = []
    for k in range(6):
        x = 20 + 110 * k
        table[40:160, x : x + 90] = (235, 235, 235)
        table[80:120, x + 30 : x + 60] = (20, 20, 20)  # the ink
        tiles.append(SeenTile("1m" if k < 4 else ("5z", "back")[k - 4], (x, 40, x + 90, 160), 0.95))
    assert _white_balanced(table, tiles) is None
    warm = np.clip(table * np.array([0.8, 1.0, 1.15]), 0, 255).astype(np.uint8)
    warm[40:160, 460:660] = (230, 140, 40)  # the haku and the back painted blue: they set nothing
    balanced = _white_balanced(warm, tiles)
    assert balanced is not None
    ground = _face_colour(balanced, tiles)
    assert np.abs(ground / ground.mean() - 1).max() < CAST / 3
    assert _white_balanced(warm, tiles[:2] + [dataclasses.replace(tiles[2], confidence=0.5)]) is None
    assert _white_balanced((warm * 0.12).astype(np.uint8), tiles) is None  # a near-black photo's "cast" is noise


def _painted_table(paints: list[tuple[int, int, int]], tile: str = "back", confidence: float = 0.7
                  ) -> tuple[np.ndarray, list]:
    """Three sure white faces with ink on green cloth, then a tile of each paint read as `tile`."""
    from vision.view import SeenTile

    img = np.full((200, 110 * (3 + len(paints)) + 20, 3), (60, 110, 40), np.uint8)
    tiles = []
    for k, paint in enumerate([(235, 235, 235)] * 3 + paints):
        x = 20 + 110 * k
        img[40:160, x : x + 90] = paint
        if k < 3:
            img[80:120, x + 30 : x + 60] = (20, 20, 20)  # the ink of a face
        tiles.append(SeenTile("1m" if k < 3 else tile, (x, 40, x + 90, 160), 0.95 if k < 3 else confidence))
    return img, tiles


def test_a_back_of_the_faces_colour_is_a_blank_face() -> None:
    """A back whose middle has the hue of the faces' blank ground is a haku, but only where most backs show the
    set's own colour, so that its backs are not white; a grey back or the side of a standing tile (the ground's
    hue, less light) stays a back, and so does every back of a photo whose faces are over-exposed."""
    from vision.recognizer import _blank_faces, _face_colour

    def blank(img: np.ndarray, tiles: list) -> list[str]:
        return [t.tile for t in _blank_faces(img, tiles, _face_colour(img, tiles))][3:]

    yellow, white, grey, side = (40, 200, 230), (228, 230, 232), (90, 90, 90), (176, 177, 178)
    img, tiles = _painted_table([yellow, yellow, white, grey, side])  # side: a standing tile's body seen edge-on
    assert blank(img, tiles) == ["back", "back", "5z", "back", "back"]
    img, tiles = _painted_table([yellow, white])  # one coloured back: maybe a haku's neighbour, maybe a stray
    assert blank(img, tiles) == ["back", "back"]
    img, tiles = _painted_table([white, white, white])  # a set with white backs
    assert blank(img, tiles) == ["back"] * 3
    img, tiles = _painted_table([white, white, white, yellow, yellow])  # ... and two shadows or bits of cloth
    assert blank(img, tiles) == ["back"] * 5
    img, tiles = _painted_table([yellow, yellow, white])
    bright = np.clip(img * 1.4 + 20, 0, 255).astype(np.uint8)  # faces and pale backs clip to one white
    assert blank(bright, tiles) == ["back"] * 3


def test_an_unsure_haku_of_grey_cloth_is_no_tile() -> None:
    """A white dragon read unsurely whose middle is grey against the faces' white (the slot of an automatic table)
    is dropped; one lit as the faces are stays, as does a sure one, and one as dark as a black set's blank face."""
    from vision.recognizer import _cloth_hakus, _face_colour

    def read(img: np.ndarray, tiles: list) -> list:
        return _cloth_hakus(img, tiles, _face_colour(img, tiles))

    white, shaded, cloth, black = (232, 233, 234), (200, 201, 202), (170, 172, 175), (40, 40, 40)
    img, tiles = _painted_table([white, shaded, cloth, black], "5z", 0.3)
    assert [t.box for t in read(img, tiles)] == [t.box for k, t in enumerate(tiles) if k != 5]  # the cloth went
    img, tiles = _painted_table([cloth], "5z", 0.6)
    assert len(read(img, tiles)) == 4  # surer than CLOTH: kept
    img, tiles = _painted_table([cloth], "1p", 0.3)
    assert len(read(img, tiles)) == 4  # only blank faces are judged so


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
def test_point_sticks_beside_a_close_up_do_not_hide_how_large_its_tiles_are(recognizer: Recognizer) -> None:
    """th01, eight tiles filling the photo, with three point sticks laid beside them (the sticks bench's seed 1): the
    detector boxes the sticks as some thirty small backs, which once set the tiles' size, so the close-up was not
    read again shrunk and the backs stayed. The faces read set it now."""
    import random

    from vision.bench import lay_point_sticks
    from vision.photo import load_photo

    photo = load_photo(PHOTOS.parent / "th01.jpeg")
    boxes = [t.box for t in read_view(recognizer, photo).tiles]
    laid, _ = lay_point_sticks(photo, boxes, 3, random.Random("1th01.jpeg"), 0, 0.3)
    view = read_view(recognizer, laid)
    assert len(view.tiles) == 8 and "back" not in [t.tile for t in view.tiles]


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
def test_the_empty_slot_of_an_automatic_table_gives_no_winning_tile() -> None:
    """lx03, a 13-tile hand below the grey slot of an automatic table: the slot once read as four haku, one taken
    for a winning tile laid beyond the hand. Now the hand reads alone, waiting for its winning tile."""
    from vision.cli import read_photo

    view, _ = read_photo(str(PHOTOS.parent / "lx03.jpg"))
    assert view.hand.win is None
    assert "".join(view.hand.concealed) == "6z3p4p2z3z4z4z4z4z1z1z1z4m"
    assert not [t for t in view.tiles if t.tile == "5z"]


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
def test_a_real_overview_of_a_table_reads_the_near_pond_in_the_order_played() -> None:
    """lx06, an automatic table seen from above with no hand in sight (what a furiten check from the camera reads):
    the near player's pond, three rows, the last tile upside down, with melds further out facing the same way and
    tiles misread on the table's centre panel just inside its first row."""
    from vision.cli import read_photo

    rows = {r["name"]: r["tiles"] for r in json.loads(PHOTOS.read_text())["images"]["lx06"]["rows"]}
    view, _ = read_photo(str(PHOTOS.parent / "lx06.jpg"))
    assert {p.seat: list(p.tiles) for p in view.ponds}["near"] == rows["discards_near_player"]
    assert not (view.hand.concealed or view.hand.win or view.hand.melds)


def test_the_device_reads_the_near_pond_of_its_sample_table_from_above(recognizer: Recognizer) -> None:
    """The bundled replay photo of a table seen from above (lx06 at 0.4x), through the device's own reader: the
    pond the furiten check takes is the camera's side, in the order played."""
    from device.recognition import VisionReader

    reading = VisionReader(recognizer).read((SAMPLE_PHOTOS / "04-table-from-above.jpg").read_bytes())
    assert reading.ponds["near"] == "3z4m13p45z1s4z7m2p1z5s9m"  # 3z 4m 1p 3p 4z 5z / 1s 4z 7m 2p 1z 5s / 9m
    assert reading.concealed == "" and reading.win == ""


def test_a_hand_small_in_the_frame_is_read_again_cut_out(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone held high: the hand fills a third of the photo, and the detector, which sees the whole photo at 640
    pixels, misses its tilted winning tile and its added kan. The part around the tiles found is read again."""
    import vision.recognizer

    photo = cv2.imread(str(SAMPLE_PHOTOS / "01-added-kan.jpg"), cv2.IMREAD_COLOR)
    h, w = photo.shape[:2]
    cv2.imwrite(str(tmp_path / "far.png"), shrunk_in_frame(photo, 1 / 3)[0])
    assert main(["score-photo", str(tmp_path / "far.png"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["han"], out["fu"], out["total"]) == (10, 50, 24000)
    reds = [t["box"] for t in out["read"]["tiles"] if t["tile"] == "0p"]
    assert len(reds) == 1 and w // 3 < reds[0][0] < reds[0][2] < 2 * w // 3  # boxes in the photo as it is
    monkeypatch.setattr(vision.recognizer, "ZOOM", 1e9)  # not cut out
    main(["score-photo", str(tmp_path / "far.png"), "--json"])
    assert '"total": 24000' not in capsys.readouterr().out


def test_a_close_up_of_a_pond_is_read_again_shrunk(recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player photographs their own discards to check furiten: the near pond of the bundled table fills the frame.
    Its tiles are twice as large to the detector as a close-up of a whole hand, which it boxes in halves and pairs;
    read again shrunk in a grey frame, the pond is read in the order played."""
    import vision.recognizer

    photo = cv2.imread(str(SAMPLE_PHOTOS / "04-table-from-above.jpg"), cv2.IMREAD_COLOR)[616:784, 608:892]
    close = cv2.resize(photo, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)
    played = ("3z", "4m", "1p", "3p", "4z", "5z", "1s", "4z", "7m", "2p", "1z", "5s", "9m")

    def near_pond() -> tuple[str, ...]:
        return next((p.tiles for p in read_view(recognizer, close).ponds if p.seat == "near"), ())

    assert near_pond() == played
    monkeypatch.setattr(vision.recognizer, "BIG", 1e9)  # never shrunk
    monkeypatch.setattr(vision.recognizer, "UNSURE_PICTURE", 0.0)
    assert near_pond() != played


def test_a_close_up_whose_tiles_come_out_in_pieces_is_read_again_shrunk(recognizer: Recognizer,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The middle of the bundled added-kan photo at 12 MP (two pairs of 5p, two 4z): the detector boxes circles and
    strokes of tiles too large for it, each box smaller than a tile, so the boxes' size does not give it away; its
    low mean score does, and the picture read shrunk finds the tiles."""
    import vision.recognizer

    photo = cv2.imread(str(SAMPLE_PHOTOS / "01-added-kan.jpg"), cv2.IMREAD_COLOR)
    h, w = photo.shape[:2]
    close = cv2.resize(photo[h * 3 // 10:h * 7 // 10, w * 3 // 10:w * 7 // 10], (4000, 3000),
                       interpolation=cv2.INTER_CUBIC)

    def faces() -> list[str]:
        return sorted(t.tile for t in read_view(recognizer, close).tiles if t.tile != "back")

    assert {"5p", "4z"} <= set(faces()) and faces().count("5p") == 2 and "1p" not in faces()
    monkeypatch.setattr(vision.recognizer, "UNSURE_PICTURE", 0.0)  # the boxes' size alone
    assert faces().count("1p") >= 4  # each of the 5p's circles read as a tile


def test_a_close_up_of_the_dead_wall_reads_its_indicators(recognizer: Recognizer) -> None:
    """The dead wall of the bundled added-kan photo cut out, as a player photographs the dora alone: two 8m between
    backs, read before as a closed kan of 8m."""
    photo = cv2.imread(str(SAMPLE_PHOTOS / "01-added-kan.jpg"), cv2.IMREAD_COLOR)
    h, w = photo.shape[:2]
    view = read_view(recognizer, photo[:h // 4, w * 2 // 5:])
    assert view.dora_indicators == ("8m", "8m") and not view.hand.melds


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")
def test_tiles_too_small_to_find_in_the_whole_photo_are_searched_for_in_windows(
        recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch) -> None:
    """lx03 (a hand) and lx06 (a 12-MP photo of a pond) shrunk to a quarter of the frame: the detector, seeing the
    whole photo at 640 pixels, finds no tile at all, so there is nothing to cut round. Searched in four windows,
    each seen 1.7 times larger, the tiles are found, and the part round them read."""
    import vision.recognizer

    def read() -> dict:
        return real_subset(PHOTOS, ("lx03", "lx06"), _ours(recognizer, change=lambda img: shrunk_in_frame(img, 0.25)))

    found = read()
    assert found["recall"] >= REAL_RECALL_FLOOR and found["precision"] >= REAL_RECALL_FLOOR
    monkeypatch.setattr(vision.recognizer, "SPARSE", 0)  # never searched
    assert read()["recall"] < 0.5


def test_search_windows_cover_the_photo_and_overlap() -> None:
    from vision.recognizer import OVERLAP, WINDOWS, _windows

    windows = _windows(4000, 3000)
    assert len(windows) == WINDOWS * WINDOWS
    covered = np.zeros((3000, 4000), bool)
    for x1, y1, x2, y2 in windows:
        covered[y1:y2, x1:x2] = True
        assert 0 <= x1 < x2 <= 4000 and 0 <= y1 < y2 <= 3000
    assert covered.all()
    (ax1, _, ax2, _), (bx1, _, bx2, _) = windows[:2]  # side by side
    assert abs((ax2 - bx1) - OVERLAP * (ax2 - ax1)) <= 1 and bx2 - bx1 == ax2 - ax1


def test_an_iphone_heic_photo_scores_as_its_jpeg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import Image
    from pillow_heif import register_heif_opener

    register_heif_opener()
    photo = tmp_path / "IMG_0001.HEIC"
    Image.open(SAMPLE_PHOTOS / "01-added-kan.jpg").save(photo, quality=90)
    assert main(["score-photo", str(photo), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["han"], out["fu"], out["total"]) == (10, 50, 24000)
    assert (out["read"]["hand"]["win"], out["read"]["dora_indicators"]) == ("0p", ["8m", "8m"])


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_photo_turned_without_exif_reads_and_scores_as_upright(turns: int, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A camera held on its side (or a photo whose EXIF orientation was lost): the recognizer turns the picture
    upright itself, and gives every box back in the photo as it is."""
    upright = cv2.imread(str(SAMPLE_PHOTOS / "01-added-kan.jpg"), cv2.IMREAD_COLOR)
    photo = tmp_path / "turned.png"
    cv2.imwrite(str(photo), np.rot90(upright, turns))
    assert main(["score-photo", str(photo), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["han"], out["fu"], out["total"]) == (10, 50, 24000)
    hand = out["read"]["hand"]
    assert (hand["win"], out["read"]["dora_indicators"]) == ("0p", ["8m", "8m"])
    assert out["read"]["warnings"][0].startswith("the picture lay turned (no EXIF orientation, or a wrong one): read "
                                                 f"it turned {90 * turns} degrees clockwise")

    h, w = upright.shape[:2]
    assert out["read"]["image"] == ({"width": h, "height": w} if turns % 2 else {"width": w, "height": h})
    seen = out["read"]["image"]
    reds = [t["box"] for t in out["read"]["tiles"] if t["tile"] == "0p"]
    assert main(["read", str(SAMPLE_PHOTOS / "01-added-kan.jpg"), "--json"]) == 0
    as_taken = json.loads(capsys.readouterr().out)
    assert not any("turned" in w for w in as_taken["warnings"])
    want = [t["box"] for t in as_taken["tiles"] if t["tile"] == "0p"]
    back = unturn_box(reds[0], turns, seen["width"], seen["height"])
    assert len(reds) == len(want) == 1 and np.allclose(back, want[0], atol=0.02 * w)


def test_a_mirrored_photo_is_read_mirrored_back_and_scores_as_taken(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A front camera, or a camera set to flip its picture, mirrors every face; the classifiers read some mirrored
    faces confidently as others (a mirrored green dragon as North), and a mirrored hand was priced wrong."""
    upright = cv2.imread(str(SAMPLE_PHOTOS / "01-added-kan.jpg"), cv2.IMREAD_COLOR)
    photo = tmp_path / "selfie.png"
    cv2.imwrite(str(photo), cv2.flip(upright, 1))
    assert main(["score-photo", str(photo), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["han"], out["fu"], out["total"]) == (10, 50, 24000)
    assert (out["read"]["hand"]["win"], out["read"]["dora_indicators"]) == ("0p", ["8m", "8m"])
    assert out["read"]["warnings"][0] == ("the picture is mirrored (a front camera, or a camera set to flip it): "
                                          "read it mirrored back; boxes are in the photo as it is")
    assert main(["read", str(SAMPLE_PHOTOS / "01-added-kan.jpg"), "--json"]) == 0
    as_taken = json.loads(capsys.readouterr().out)
    assert not any("mirrored" in w for w in as_taken["warnings"])
    w = upright.shape[1]
    (red,) = [t["box"] for t in out["read"]["tiles"] if t["tile"] == "0p"]
    (want,) = [t["box"] for t in as_taken["tiles"] if t["tile"] == "0p"]
    assert np.allclose([w - red[2], red[1], w - red[0], red[3]], want, atol=0.01 * w)


def test_a_thumbnail_reads_no_specks_as_tiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Fixed (an acceptance run): a 32 x 32 or 64 x 48 copy of a photo read as 201 and 46 face-down "tiles" one or
    two pixels across, exit 0."""
    upright = cv2.imread(str(SAMPLE_PHOTOS / "01-added-kan.jpg"), cv2.IMREAD_COLOR)
    for size in ((64, 48), (32, 32)):
        photo = tmp_path / "thumb.png"
        cv2.imwrite(str(photo), cv2.resize(upright, size, interpolation=cv2.INTER_AREA))
        assert main(["read", str(photo), "--json"]) == 2
        out = capsys.readouterr()
        assert "no tiles found" in out.err
        warnings = json.loads(out.out)["warnings"]
        assert warnings[0].endswith(f"pixels across left out: no face shows that small (the photo is {size[0]}x"
                                    f"{size[1]}: use the photo at its full size, or take it closer)"), warnings
        assert not any("turned" in w for w in warnings)


def test_a_black_and_white_photo_one_cut_short_and_one_over_exposed_say_what_they_cannot_show(
        recognizer: Recognizer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A black-and-white photo has no red fives to show, a JPEG cut short in copying decodes to flat grey below
    the cut, and an over-exposed one burns its faces white: the reading says so instead of reading plain fives, a
    hand with no bottom, or backs for white dragons, in silence."""
    data = (SAMPLE_PHOTOS / "01-added-kan.jpg").read_bytes()
    photo = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert not any("over-exposed" in w for w in read_view(recognizer, photo).warnings)
    bright = tmp_path / "bright.jpg"
    cv2.imwrite(str(bright), np.clip(photo * 1.4 + 20, 0, 255).astype(np.uint8))
    main(["read", str(bright), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["warnings"][0].startswith("the photo is over-exposed: ")
    grey = tmp_path / "grey.jpg"
    cv2.imwrite(str(grey), cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))
    assert main(["read", str(grey), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hand"]["win"] == "5p" and "the photo has no colour" in out["warnings"][0]
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 3])
    main(["read", str(cut), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["warnings"][0].startswith("the bottom ") and "flat grey (a file cut short?)" in out["warnings"][0]


def _rolled(img: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The picture turned `degrees` counter-clockwise on a canvas that holds it (a phone held askew), and the map."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    size = (round(w * c + h * s), round(w * s + h * c))
    m[:, 2] += (size[0] / 2 - w / 2, size[1] / 2 - h / 2)
    return cv2.warpAffine(img, m, size, borderValue=(90, 120, 90)), m


@pytest.mark.parametrize("degrees", [30, -45])
def test_a_photo_taken_askew_reads_and_scores_as_square(degrees: float, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A phone held askew, or a table seen across a corner: the recognizer turns the picture square to the rows
    before it reads them (read as it is, this photo turned 30 or 45 degrees loses the hand), and gives the boxes
    back in the photo as it is."""
    upright = cv2.imread(str(SAMPLE_PHOTOS / "01-added-kan.jpg"), cv2.IMREAD_COLOR)
    rolled, m = _rolled(upright, degrees)
    photo = tmp_path / "askew.png"
    cv2.imwrite(str(photo), rolled)
    assert main(["score-photo", str(photo), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["han"], out["fu"], out["total"]) == (10, 50, 24000)
    hand = out["read"]["hand"]
    assert (hand["win"], [m["kind"] for m in hand["melds"]]) == ("0p", ["added-kan"])
    assert out["read"]["dora_indicators"][-2:] == ["8m", "8m"]  # turned 30 degrees, the wall's lilac end reads 5z
    assert not any("turned" in w for w in out["read"]["warnings"])
    assert out["read"]["image"] == {"width": rolled.shape[1], "height": rolled.shape[0]}

    assert main(["read", str(SAMPLE_PHOTOS / "01-added-kan.jpg"), "--json"]) == 0
    want = [t["box"] for t in json.loads(capsys.readouterr().out)["tiles"] if t["tile"] == "0p"]
    reds = [t["box"] for t in out["read"]["tiles"] if t["tile"] == "0p"]
    assert len(reds) == len(want) == 1
    x1, y1, x2, y2 = want[0]
    centre = m @ np.array([(x1 + x2) / 2, (y1 + y2) / 2, 1.0])
    x1, y1, x2, y2 = reds[0]
    assert np.allclose(((x1 + x2) / 2, (y1 + y2) / 2), centre, atol=0.1 * (x2 - x1))


def test_a_box_read_in_the_squared_frame_is_given_back_around_the_same_tile_in_the_photo() -> None:
    """A tile boxed in the frame turned square to the rows lands on the same tile in the photo (the map's direction
    and centre), in a box between the ellipse and the rectangle around the turned tile; a tile the photo's edge cuts
    lies partly outside it."""
    from vision.recognizer import _box_through, _share_inside

    frame = np.zeros((400, 500), np.uint8)
    frame[150:230, 200:260] = 255  # a tile 60 x 80 in the squared frame
    to_photo = cv2.getRotationMatrix2D((250, 200), -30, 1.0)
    to_photo[:, 2] += (40, 10)
    photo = cv2.warpAffine(frame, to_photo, (600, 500))
    x, y, w, h = cv2.boundingRect(photo)
    got = _box_through((200, 150, 260, 230), to_photo, 600, 500)
    assert np.allclose(((got[0] + got[2]) / 2, (got[1] + got[3]) / 2), (x + w / 2, y + h / 2), atol=1.5)
    assert 0.8 * w < got[2] - got[0] <= w + 1 and 0.8 * h < got[3] - got[1] <= h + 1
    assert _share_inside((200, 150, 260, 230), to_photo, 600, 500) == pytest.approx(1.0)
    assert _share_inside((200, 150, 260, 230), np.array([[1.0, 0, -230], [0, 1, 0]]), 600, 500) == pytest.approx(0.5)


def test_unturning_a_box_undoes_numpy_quarter_turns() -> None:
    picture = np.zeros((30, 50), np.uint8)
    picture[5:12, 20:41] = 1  # box (20, 5, 41, 12)
    for turns in range(4):
        turned = np.rot90(picture, turns)
        ys, xs = np.nonzero(turned)
        box = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
        assert unturn_box(box, turns, turned.shape[1], turned.shape[0]) == (20, 5, 41, 12)


@needs_art
def test_read_json_shape_on_a_rendered_scene(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scene = make_scene(SCENE_SEEDS[0], kind="closeup", fonts=False, mix=1)
    photo = tmp_path / "scene.jpg"
    cv2.imwrite(str(photo), scene.image)
    overlay = tmp_path / "seen.jpg"
    code = main(["read", str(photo), "--json", "--overlay", str(overlay)])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, 2)
    assert out["image"] == {"width": 1280, "height": 960} or out["image"] == {"width": 960, "height": 1280}
    assert set(out) == {"image", "tiles", "hand", "dora_indicators", "ponds", "warnings"}
    assert cv2.imread(str(overlay)) is not None


def test_empty_table_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(0)
    felt = np.clip(np.array([40, 110, 30]) + rng.normal(0, 6, (960, 1280, 3)), 0, 255).astype(np.uint8)
    photo = tmp_path / "felt.jpg"
    cv2.imwrite(str(photo), felt)
    assert main(["read", str(photo)]) == 2
    assert "no tiles found" in capsys.readouterr().err


def test_one_reading_per_tile() -> None:
    from vision.recognizer import _one_per_tile
    from vision.view import SeenTile

    tilted = [SeenTile("0s", (293, 262, 432, 386), 0.29), SeenTile("0p", (286, 245, 407, 364), 0.41)]
    row = [SeenTile("1m", (0, 0, 26, 35), 0.9), SeenTile("2m", (27, 0, 53, 35), 0.5)]
    edge_on = [SeenTile("back", (0, 0, 10, 35), 0.7), SeenTile("back", (2, 0, 12, 35), 0.6)]
    assert [t.tile for t in _one_per_tile(tilted + row + edge_on)] == ["0p", "1m", "2m", "back", "back"]
    # a rendered dev scene: the top of a meld's 7p boxed again with the point sticks behind it, read as 7p at 0.2,
    # made a row beyond the hand that hid the dora indicator laid out there
    sure, part = SeenTile("7p", (942, 437, 1030, 512), 0.91), SeenTile("7p", (930, 418, 1010, 480), 0.2)
    assert _one_per_tile([sure, part]) == [sure]
    pair = SeenTile("7p", (1020, 437, 1108, 512), 0.2)  # the next tile of a pair: side by side, barely overlapping
    other = dataclasses.replace(part, tile="1p")  # another face: not this tile boxed again
    surer = dataclasses.replace(part, confidence=0.5)  # read surely enough to stand on its own
    for kept in (pair, other, surer):
        assert _one_per_tile([sure, kept]) == [sure, kept]


def test_tiles_far_narrower_than_the_sure_tiles_near_them_are_no_tiles() -> None:
    """A point stick reads as a chain of narrow, unsure backs and faces; the hand beside it sets the scale."""
    from vision.recognizer import _tile_sized
    from vision.view import SeenTile

    hand = [SeenTile("1m", (100 + 60 * k, 100, 158 + 60 * k, 180), 0.93) for k in range(6)]
    stick = [SeenTile("back" if k % 2 else "2p", (120 + 12 * k, 250, 138 + 12 * k, 275), 0.5) for k in range(5)]
    sure_but_narrow = SeenTile("3s", (500, 250, 518, 275), 0.9)
    at_the_edge = SeenTile("back", (0, 120, 15, 160), 0.4)  # cut by the photo's edge
    far_row = [SeenTile("back", (700 + 30 * k, 10, 728 + 30 * k, 50), 0.88 if k else 0.6) for k in range(4)]
    kept = _tile_sized(hand + stick + [sure_but_narrow, at_the_edge] + far_row, 1000, 400)
    assert kept == hand + [sure_but_narrow, at_the_edge] + far_row


def test_point_sticks_beside_a_real_hand_read_as_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three point sticks laid on the table of a real photo, drawn to the tiles' scale (tests/bench/
    bench_point_sticks.py): no tile is read on them (15 were before the size rule), and the hand scores as without
    them."""
    import random

    from vision.bench import lay_point_sticks
    from vision.photo import load_photo

    photo_path = SAMPLE_PHOTOS / "02-seven-pairs.jpg"
    assert main(["score-photo", str(photo_path), "--json"]) == 0
    want = json.loads(capsys.readouterr().out)
    photo = load_photo(photo_path)
    laid, outlines = lay_point_sticks(photo, [t.box for t in read_view(Recognizer(), photo).tiles], 3,
                                      random.Random(0))
    assert len(outlines) == 3
    path = tmp_path / "sticks.png"
    cv2.imwrite(str(path), laid)
    assert main(["score-photo", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["han"], out["fu"], out["total"]) == (want["han"], want["fu"], want["total"])
    assert out["read"]["hand"] == want["read"]["hand"]
    centres = [((x1 + x2) / 2, (y1 + y2) / 2) for x1, y1, x2, y2 in (t["box"] for t in out["read"]["tiles"])]
    assert not [c for c in centres if any(cv2.pointPolygonTest(o, c, False) >= 0 for o in outlines)]


def test_a_photo_over_the_size_cap_is_read_shrunk_with_boxes_in_its_own_pixels(
        recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 24- or 50-MP photo is read shrunk to MAX_SIDE: it reads as that shrunk picture does, boxes scaled back."""
    import vision.recognizer as module

    photo = cv2.imread(str(SAMPLE_PHOTOS / "02-seven-pairs.jpg"))
    h, w = photo.shape[:2]
    monkeypatch.setattr(module, "MAX_SIDE", 1280)
    scale = 1280 / max(h, w)
    direct = read_view(recognizer, cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    capped = read_view(recognizer, photo)
    assert (capped.width, capped.height) == (w, h)
    assert len(direct.hand.concealed) == 13 and capped.hand == direct.hand
    assert (capped.dora_indicators, capped.ponds) == (direct.dora_indicators, direct.ponds)
    assert [t.tile for t in capped.tiles] == [t.tile for t in direct.tiles]
    for a, b in zip(capped.tiles, direct.tiles, strict=True):
        assert a.box == pytest.approx([v / scale for v in b.box], abs=1e-6)
