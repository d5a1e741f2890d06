"""`jantaku read` / `score-photo` input handling: not an image, EXIF rotation, impossible pictures, hand building."""

from __future__ import annotations

import dataclasses
import json
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cli import main
from device.config import SAMPLE_PHOTOS
from table.errors import InputError
from table.hand import validate_hand
from table.presets import get_preset
from table.tiles import parse_tile
from vision.cli import (
    hand_from_view,
    view_doubts,
    view_faults,
    with_hidden_red_fives,
    with_set_red_fives,
    with_table_checks,
)
from vision.photo import load_photo, open_photo, picture_notes
from vision.view import Pond, SeenHand, SeenMeld, SeenTile, TableView


def _jpeg_with_orientation(img: np.ndarray, orientation: int) -> bytes:
    """A JPEG carrying a minimal EXIF block with the Orientation tag, as phones write it."""
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    data = buf.tobytes()
    ifd = struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    tiff = b"II*\x00" + struct.pack("<I", 8) + ifd
    app1 = b"Exif\x00\x00" + tiff
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + data[2:]


def test_exif_rotation_is_applied(tmp_path: Path) -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    img[:, :20] = 255  # a white band on the left edge
    path = tmp_path / "phone.jpg"
    path.write_bytes(_jpeg_with_orientation(img, 6))  # 6: the camera was turned; rotate 90 degrees clockwise
    out = load_photo(path)
    assert out.shape[:2] == (200, 100)
    assert out[:20].mean() > 200 and out[-20:].mean() < 50  # the left band is now along the top


@pytest.mark.parametrize("suffix", [".heic", ".avif"])
def test_a_phone_photo_in_heic_or_avif_is_read_upright(tmp_path: Path, suffix: str) -> None:
    """An iPhone saves HEIC and some Androids AVIF: HEIF files that OpenCV does not decode (HEIC) or decodes
    without the turn their transform boxes give (AVIF)."""
    from PIL import Image
    from pillow_heif import register_heif_opener

    register_heif_opener()
    img = np.zeros((100, 200, 3), np.uint8)
    img[:, :20] = (0, 0, 255)  # a red band on the left edge
    picture = Image.fromarray(img[..., ::-1])
    picture.save(tmp_path / f"flat{suffix}", quality=90)
    out = load_photo(tmp_path / f"flat{suffix}")
    assert out.shape == (100, 200, 3)
    assert out[:, :15, 2].mean() > 200 and out[:, :15, :2].mean() < 50 and out[:, 30:].mean() < 20
    if suffix == ".avif":  # Pillow writes the EXIF orientation as the file's rotation box
        exif = picture.getexif()
        exif[0x0112] = 6
        picture.save(tmp_path / "turned.avif", exif=exif, quality=90)
        turned = load_photo(tmp_path / "turned.avif")
        assert turned.shape[:2] == (200, 100) and turned[:15, :, 2].mean() > 200 and turned[30:].mean() < 20
    cut = tmp_path / f"cut{suffix}"
    cut.write_bytes((tmp_path / f"flat{suffix}").read_bytes()[:300])
    with pytest.raises(InputError, match=f"is cut short: the {suffix[1:].upper()} file ends before its picture does"):
        load_photo(cut)


def test_a_tiff_opencv_cannot_read_is_read_by_pillow_without_opencvs_error_lines(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from PIL import Image

    picture = Image.fromarray(np.zeros((100, 200, 3), np.uint8))
    exif = picture.getexif()
    exif[0x0112] = 6  # turned: OpenCV's TIFF reader fails on it
    picture.save(tmp_path / "turned.tif", exif=exif)
    assert load_photo(tmp_path / "turned.tif").shape == (200, 100, 3)
    assert "ERROR" not in capfd.readouterr().err


@pytest.mark.parametrize("content, message", [
    (b"", "is empty"),
    (b"hello, this is text", "not an image"),
])
def test_bad_files_are_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "x.jpg"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        load_photo(path)


@pytest.mark.parametrize("size", [(12_000, 8_000), (30_000, 30_000)])
def test_a_photo_too_large_is_refused_from_its_header_before_it_is_decoded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """A PNG of zeros packs 900 megapixels into a megabyte; decoding it first would take gigabytes."""
    import zlib

    w, h = size
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = zlib.compress(b"\0" * (w + 1))  # one row's worth stands in for the data: the header is what counts
    path = tmp_path / "wide.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", row) + chunk(b"IEND", b""))
    monkeypatch.setattr(cv2, "imread", lambda *a: pytest.fail("decoded before its size was checked"))
    with pytest.raises(InputError, match="megapixels are refused"):
        load_photo(path)


def test_a_jpeg_cut_short_reads_to_its_grey_rows_without_a_decoder_message(tmp_path: Path,
                                                                         capfd: pytest.CaptureFixture[str]) -> None:
    """libjpeg under OpenCV printed "Premature end of JPEG file" on the console for a file cut short in copying;
    the reading's own note says what it means."""
    rng = np.random.default_rng(1)
    whole = tmp_path / "whole.jpg"
    cv2.imwrite(str(whole), rng.integers(0, 255, (240, 320, 3), dtype=np.uint8))
    data = whole.read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])
    img = load_photo(cut)
    assert img.shape == load_photo(whole).shape
    assert "Premature end" not in capfd.readouterr().err
    assert picture_notes(img)[0].startswith("the bottom ")
    # a PNG cut short is read as far as it goes too, saying so (other formats: tests/test_vision_photo_input.py)
    (tmp_path / "cut.png").write_bytes(cv2.imencode(".png", img)[1].tobytes()[:2000])
    assert open_photo(tmp_path / "cut.png").notes[0].startswith("the file is cut short")


def test_picture_notes_name_a_missing_colour_and_a_flat_grey_bottom() -> None:
    rng = np.random.default_rng(0)
    photo = rng.integers(0, 255, (200, 300, 3), dtype=np.uint8)
    assert picture_notes(photo) == []
    assert picture_notes(np.repeat(photo[..., :1], 3, axis=2))[0].startswith("the photo has no colour")
    cut = photo.copy()
    cut[150:] = 128
    assert picture_notes(cut) == ["the bottom 25% of the photo is flat grey (a file cut short?): tiles there were "
                                  "not seen"]
    black_border = photo.copy()
    black_border[190:] = 0  # a dark band is the table's edge, no cut file
    assert picture_notes(black_border) == []
    assert picture_notes(np.full((200, 300, 3), 128, np.uint8)) == [
        "the whole photo is one flat grey: there is nothing in it to read"]  # not "cut short", not "no colour"


def test_a_sepia_photo_is_read_with_a_note_that_red_fives_cannot_show() -> None:
    photo = load_photo(SAMPLE_PHOTOS / "01-added-kan.jpg")
    assert picture_notes(photo) == []
    sepia = np.array([[0.131, 0.534, 0.272], [0.168, 0.686, 0.349], [0.189, 0.769, 0.393]])  # BGR out of BGR in
    toned = np.clip(photo.astype(np.float32) @ sepia.T, 0, 255).astype(np.uint8)
    toned = cv2.imdecode(cv2.imencode(".jpg", toned, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], cv2.IMREAD_COLOR)
    assert picture_notes(toned) == ["the photo's colours are one tint (a sepia or toned black-and-white filter): "
                                    "red fives read as plain fives; check them"]


def test_a_dark_photo_and_a_palette_photo_say_so_not_that_they_are_sepia() -> None:
    from PIL import Image

    photo = load_photo(SAMPLE_PHOTOS / "01-added-kan.jpg")
    noise = np.random.default_rng(2).normal(0, 3, photo.shape)
    dark = np.clip(photo * 0.22 + noise, 0, 255).astype(np.uint8)  # a lamp-less room: every colour faint
    notes = picture_notes(dark)
    assert len(notes) == 1 and notes[0].startswith("the photo is dark (its lightest parts at ")
    assert not any("one tint" in n for n in notes)
    assert picture_notes(np.clip(photo * 0.4, 0, 255).astype(np.uint8)) == []  # dim, its faces still light enough
    gif = Image.fromarray(photo[..., ::-1]).convert("P", palette=Image.Palette.ADAPTIVE).convert("RGB")
    notes = picture_notes(np.ascontiguousarray(np.asarray(gif)[..., ::-1]))
    assert len(notes) == 1 and "colours (a GIF, or a PNG saved with a palette): red fives may" in notes[0]
    assert picture_notes(cv2.resize(photo, (48, 36))) == []  # a thumbnail has few pixels, not few colours


def test_cli_not_an_image_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("not a photo")
    assert main(["read", str(path)]) == 2
    assert "not an image" in capsys.readouterr().err
    assert main(["score-photo", str(tmp_path / "missing.jpg")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["read", ""]) == 2
    assert "no photo given: the path is empty" in capsys.readouterr().err  # not "." named as a folder
    assert main(["read", "/dev/zero"]) == 2  # read whole, it would never end
    assert "not a regular file" in capsys.readouterr().err


def test_a_corrupt_jpeg_says_so_once_without_the_decoders_own_line(tmp_path: Path,
                                                                    capfd: pytest.CaptureFixture[str]) -> None:
    data = (SAMPLE_PHOTOS / "01-added-kan.jpg").read_bytes()
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(data[:200] + bytes(range(256)) * 4 + data[1224:])  # libjpeg: "Corrupt JPEG data: ..."
    assert main(["read", str(corrupt)]) == 2
    err = capfd.readouterr().err
    assert err == f"jantaku: {corrupt} is not an image that can be read (JPEG, HEIC, PNG, WebP, AVIF, TIFF, BMP)\n"


def _tiles(names: list[str]) -> tuple[SeenTile, ...]:
    return tuple(SeenTile(n, (i * 30.0, 0.0, i * 30.0 + 28, 40.0), 0.9) for i, n in enumerate(names))


def test_fifth_copy_is_an_impossible_picture() -> None:
    view = TableView(640, 480, _tiles(["3m"] * 5 + ["0p", "0p", "back"]))
    assert view_faults(view) == ["5 copies of 3m seen; a set has only 4"]
    assert view_doubts(view) == ["2 red fives 0p seen; a set usually has one"]  # some sets have two: not a refusal
    assert view_faults(TableView(640, 480)) == ["no tiles found in the photo (is the table in the picture, and lit?)"]


def test_read_exits_2_on_a_fifth_copy_in_the_hand_but_not_in_the_ponds_nor_on_a_second_red_five(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A fifth copy among the hand and dora indicators cannot be; one that needs a discard is a misread pond tile as
    often (whole tables), so the reading is printed with a warning and exit 0, as score-photo scores such a hand."""
    import vision.cli

    hand = SeenHand(("3m", "3m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "1s", "1s", "1s", "2z"), "2z")
    views = {"hand": TableView(640, 480, _tiles(["3m"] * 5), hand, ("3m", "3m")),  # three in hand, two indicators
             "pond": TableView(640, 480, _tiles(["3m"] * 5), hand, ("2m",)),  # the other two among the discards
             "reds": TableView(640, 480, _tiles(["0p", "0p", "1m"]))}
    monkeypatch.setattr(vision.cli, "read_photo", lambda path, models=None: (views[path], np.zeros((480, 640, 3))))
    assert main(["read", "hand", "--json"]) == 2
    out = capsys.readouterr()
    assert "5 copies of 3m in the hand and dora indicators" in out.err
    assert "5 copies of 3m seen" in " ".join(json.loads(out.out)["warnings"])
    assert main(["read", "pond", "--json"]) == 0
    assert "5 copies of 3m seen" in " ".join(json.loads(capsys.readouterr().out)["warnings"])
    assert main(["read", "reds", "--json"]) == 0
    assert "2 red fives 0p seen" in " ".join(json.loads(capsys.readouterr().out)["warnings"])


def test_read_warns_of_a_hand_no_hand_can_be(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Fixed (an acceptance run: a photo bent by a wide lens): a hand read as 15 tiles printed without a word."""
    import vision.cli

    long_hand = SeenHand(("1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "1s", "1s", "1s", "2z", "4p"), "2z")
    views = {"long": TableView(640, 480, _tiles(["1m"]), long_hand),
             "waiting": TableView(640, 480, _tiles(["1m"]), dataclasses.replace(long_hand, win=None,
                                                                                  concealed=long_hand.concealed[:13])),
             "pond": TableView(640, 480, _tiles(["1m"]))}
    monkeypatch.setattr(vision.cli, "read_photo", lambda path, models=None: (views[path], np.zeros((480, 640, 3))))
    assert main(["read", "long", "--json"]) == 0
    assert "the hand shows 15 tiles (each meld counted as three, the winning tile included): a hand has 13, and 14 " \
           "with its winning tile" in " ".join(json.loads(capsys.readouterr().out)["warnings"])
    for name in ("waiting", "pond"):  # a hand laid to ask its waits; no hand at all
        assert main(["read", name, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["warnings"] == []


def test_an_overlay_name_opencv_cannot_write_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import vision.cli

    view = TableView(640, 480, _tiles(["1m"]))
    monkeypatch.setattr(vision.cli, "read_photo", lambda path, models=None: (view, np.zeros((480, 640, 3), np.uint8)))
    assert main(["read", "x.jpg", "--overlay", str(tmp_path / "seen.txt")]) == 2
    assert "cannot write the overlay" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["read", "score-photo"])
def test_an_overlay_named_as_the_photo_is_refused_and_the_photo_kept(
        command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import vision.cli

    photo = tmp_path / "table.jpg"
    photo.write_bytes((SAMPLE_PHOTOS / "01-added-kan.jpg").read_bytes())
    monkeypatch.setattr(vision.cli, "read_photo", lambda *a, **k: pytest.fail("read before the overlay was checked"))
    monkeypatch.chdir(tmp_path)
    assert main([command, str(photo), "--overlay", "./table.jpg"]) == 2
    assert "the overlay ./table.jpg is the photo itself" in capsys.readouterr().err
    assert photo.read_bytes() == (SAMPLE_PHOTOS / "01-added-kan.jpg").read_bytes()


def test_a_fifth_copy_outside_the_hand_is_a_check_not_a_refusal() -> None:
    """Four 5s in a closed kan and a fifth in a pond: the hand scores, and the player is told to look."""
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "5s", "5s", "5s", "5s"]
    view = TableView(640, 480, _tiles(names + ["5s"]), SeenHand(
        ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"), "2z",
        (SeenMeld("closed-kan", ("5s", "5s", "5s", "5s"), None),)))
    assert hand_from_view(view).win is not None
    checked = with_table_checks(view)
    assert checked.warnings == ("5 copies of 5s seen; a set has only 4 (hand, dora and ponds together): one of "
                                "them is misread; check the tiles with that name",)
    assert with_table_checks(checked.__class__(640, 480, _tiles(names))).warnings == ()


def test_hand_from_view_builds_the_scoring_hand() -> None:
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "5s", "5s", "5s"]
    view = TableView(640, 480, _tiles(names + ["back"]), SeenHand(
        ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"), "2z",
        (SeenMeld("closed-kan", ("5s", "5s", "5s", "5s"), None),)))
    hand = hand_from_view(view)
    assert [str(t) for t in hand.concealed][:3] == ["1m", "2m", "3m"] and str(hand.win) == "2z"
    assert hand.melds[0].kind == "closed-kan" and len(hand.melds[0].tiles) == 4


def test_cropped_hand_says_what_is_missing() -> None:
    view = TableView(640, 480, _tiles(["1m", "2m", "3m", "4p"]), SeenHand(("1m", "2m", "3m", "4p"), None, ()))
    with pytest.raises(InputError, match="the hand shows 4 tiles .* and no winning tile set apart"):
        hand_from_view(view)
    twelve = ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s")  # and a pon: a tile short, none set apart
    view = TableView(640, 480, _tiles([*twelve, "2z", "2z", "2z"]), SeenHand(twelve, None, (
        SeenMeld("pon", ("2z", "2z", "2z"), "left"),)))
    with pytest.raises(InputError, match="the hand shows 12 tiles"):
        hand_from_view(view)
    with pytest.raises(InputError, match="^cannot score the photo: no winning tile: set it apart"):
        hand_from_view(dataclasses.replace(view, hand=dataclasses.replace(view.hand, concealed=(*twelve, "1z"))))
    bad = TableView(640, 480, _tiles(["1m", "2m", "7z", "9p"]), SeenHand(("1m",), "2m", (
        SeenMeld("unknown", ("7z", "9p", "1m"), "left"),)))
    with pytest.raises(InputError, match="make no meld"):
        hand_from_view(bad)


def test_hand_tiles_read_face_down_are_named_as_such() -> None:
    concealed = ("1m", "2m", "3m", "back", "back", "5z", "6p", "7p", "8p", "9s", "9s", "9s", "4p")
    view = TableView(640, 480, _tiles(list(concealed) + ["4p"]), SeenHand(concealed, "4p", ()))
    with pytest.raises(InputError, match=r"2 tiles of the hand read as face down \(a blank white dragon\?\)"):
        hand_from_view(view)


NO_DORA = "no dora indicator read from the photo: counted as none; give them with --dora if there are any"


def _score_photo_of(view: TableView, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                    *flags: str):
    """`jantaku score-photo --json` on a photo the layout read as `view`."""
    import vision.cli

    monkeypatch.setattr(vision.cli, "read_photo", lambda path, models=None: (view, None))
    code = main(["score-photo", "table.jpg", "--json", *flags])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out else None), out.err


ONE_ROW = ("2m", "3m", "4m", "2p", "2p", "4p", "5p", "6p", "3s", "4s", "5s", "7s", "8s", "9s")


def _one_row_view() -> TableView:
    """A hand laid in one row: the layout takes the rightmost tile (9s) for the winning one, and says so."""
    concealed, win = ONE_ROW[:-1], ONE_ROW[-1]
    return TableView(640, 480, _tiles(list(ONE_ROW)), SeenHand(concealed, win, (), concealed_indices=tuple(range(13)),
                                                               win_index=13),
                     warnings=("the winning tile is not set apart; taking the rightmost tile of the hand",))


def test_a_hand_laid_in_one_row_names_the_other_winning_tiles_that_change_the_price(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Won on 9s it is pinfu tsumo (2 han 20 fu); on a middle, edge or pair wait it is not. On 2m, 4m, 4p, 6p, 3s
    or 5s (an open wait) it is pinfu too, so the price is the same and those are not named."""
    code, out, _ = _score_photo_of(_one_row_view(), monkeypatch, capsys, "--tsumo")
    assert code == 0 and (out["han"], out["fu"], out["total"]) == (2, 20, 2100)
    assert out["read"]["warnings"][-1] == ("had another tile won, the price differs: 3m 2p 5p 4s 7s 8s 1,500 (1 han "
                                          "30 fu); name the winning tile with --win (scored: 9s, 2,100)")


def test_score_photo_win_names_the_winning_tile_of_a_hand_laid_in_one_row(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _score_photo_of(_one_row_view(), monkeypatch, capsys, "--tsumo", "--win", "7s")
    assert code == 0 and (out["han"], out["fu"], out["total"]) == (1, 30, 1500)
    hand = out["read"]["hand"]
    assert hand["win"] == "7s" and hand["concealed"] == [t for t in ONE_ROW if t != "7s"]
    assert "winning tile as given: 7s (read: 9s)" in out["read"]["warnings"]
    assert not any(w.startswith("had another tile won") for w in out["read"]["warnings"])
    code, out, err = _score_photo_of(_one_row_view(), monkeypatch, capsys, "--win", "1z")
    assert code == 2 and "--win 1z: the hand read holds no 1z (2m 3m 4m 2p 2p 4p 5p 6p 3s 4s 5s 7s 8s 9s)" in err


@pytest.mark.parametrize(("concealed", "win", "scores"), [
    (("back", "5z", "5z", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"), "2z", True),
    (("back", "1m", "1m", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"), "9p", False),
], ids=["a haku makes it a win", "no win either way"])
def test_score_photo_takes_a_face_down_hand_tile_for_a_haku_only_when_that_makes_a_win(
        concealed: tuple[str, ...], win: str, scores: bool, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    warning = "1 tile read as face down inside the hand row (a blank white dragon?): name them before scoring"
    view = TableView(640, 480, _tiles([*concealed, win]), SeenHand(concealed, win, ()), warnings=(warning,))
    code, out, err = _score_photo_of(view, monkeypatch, capsys)
    if scores:
        assert code == 0 and {"name": "Yakuhai (haku)", "han": 1} in out["yaku"]
        assert out["read"]["hand"]["concealed"][0] == "5z"
        assert [w.split(" (")[0] for w in out["read"]["warnings"]] == [
            NO_DORA, "took the tile read face down in the hand for a white dragon: check it"]
    else:
        assert code == 2 and "1 tile of the hand read as face down (a blank white dragon?)" in err
        assert "Hand   back 1m 1m 1m" in err
        assert out["valid"] is False and "read as face down" in out["error"]  # --json: what was read, for a program
        assert out["read"]["hand"]["concealed"][:2] == ["back", "1m"]


@pytest.mark.parametrize(("flags", "message"), [
    (("--seat", "X"), "unknown wind 'X'"),
    (("--dora", "9x"), "--dora 9x: unknown suit 'x'"),
    (("--rules", "chess"), "unknown rules 'chess'"),
    (("--honba", "-1"), "honba must be between 0 and 100, not -1"),
    (("--ippatsu",), "ippatsu needs riichi"),
    (("--chankan", "--tsumo"), "chankan is a ron win"),
    (("--overlay", "/no/such/folder/seen.jpg"), "cannot write the overlay to /no/such/folder/seen.jpg"),
    (("--overlay", "seen.txt"), "cannot write the overlay to seen.txt"),
    (("--rules", "mcr"), "is not riichi: score-photo scores riichi hands; give the tiles to `jantaku score --system"),
    # the player's corrections (vision.corrections)
    (("--add", "4x"), "--add 4x: unknown suit 'x'"),
    (("--add", ""), "--add '': no tiles given"),
    (("--fix", "9s"), "--fix 9s: give READ=TRUE, e.g. --fix 9s=5z"),
    (("--fix", "9s=55z"), "--fix 9s=55z: expected one tile, got '55z'"),
    (("--fix", "back=back"), "--fix back=back: cannot read tiles 'back'"),
    (("--fix", "9s=9s"), "--fix 9s=9s: the tile read and the tile it is are the same"),
    (("--fix", "meld5:9s=5z"), "--fix meld5:9s=5z: a hand's melds are meld1 to meld4"),
    (("--fix", "hnd:9s=5z"), "--fix hnd:9s=5z: cannot read tiles 'hnd:9s'"),
    (("--add", "meld5:5z"), "--add meld5:5z: a hand's melds are meld1 to meld4"),
    (("--add", "meld3:5z5z"), "--add meld3:5z5z: a meld takes one tile more (its fourth: a pon that is a kan)"),
    (("--add", "meld3:"), "--add 'meld3:': no tiles given"),
    (("--meld", "pon"), "--meld pon: cannot read meld 'pon': write kind:tiles"),
    (("--meld", "pong:777z"), "--meld pong:777z: unknown meld kind 'pong'"),
    (("--meld", "pon:777z:behind"), "--meld pon:777z:behind: unknown meld source 'behind'"),
])
def test_score_photo_refuses_a_mistyped_option_before_reading_the_photo(
        flags: tuple[str, ...], message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import vision.cli

    monkeypatch.setattr(vision.cli, "read_photo", lambda *a, **k: pytest.fail("read before the options were checked"))
    assert main(["score-photo", "table.jpg", *flags]) == 2
    assert message in capsys.readouterr().err


def test_score_photo_scores_what_the_layout_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The score-photo plumbing (photo -> layout -> Hand -> validate -> score) with exact detections."""
    from vision.art import DEFAULT_ART

    if not (DEFAULT_ART / "Regular" / "Man1.png").exists():
        pytest.skip("tile art not found")

    import vision.recognizer as rec
    from table.hand import Hand, Meld
    from table.presets import get_preset
    from table.scoring import Situation, score_hand
    from table.tiles import parse_tile
    from vision.classes import SYMMETRIC, is_horizontal
    from vision.synth import make_scene

    scene = make_scene(3, kind="closeup", fonts=False, mix=1)
    photo = tmp_path / "hand.jpg"
    cv2.imwrite(str(photo), scene.image)

    class ExactDetections:
        """Stands in for the trained models: the generator's own labels as detections."""

        def __init__(self, *_: object) -> None:
            pass

        def read(self, img: np.ndarray) -> rec.TileReading:
            return rec.TileReading([SeenTile(lb.name, lb.box, 1.0, horizontal=is_horizontal(lb.det), orientation=(
                None if lb.name in SYMMETRIC or lb.name == "back" else lb.orientation)) for lb in scene.labels],
                img.shape[1], img.shape[0])

    monkeypatch.setattr(rec, "Recognizer", ExactDetections)
    code = main(["score-photo", str(photo), "--tsumo", "--json"])
    out = json.loads(capsys.readouterr().out)
    t = scene.truth
    hand = Hand(tuple(parse_tile(x) for x in t.concealed), parse_tile(t.win),
                tuple(Meld(m.kind, tuple(parse_tile(x) for x in m.tiles), m.source) for m in t.melds))
    want = score_hand(hand, Situation(tsumo=True, dora_indicators=tuple(parse_tile(x) for x in t.dora_indicators)),
                      get_preset("tenhou"))
    assert code == (0 if want.valid else 1)
    assert out["valid"] == want.valid and out["total"] == want.to_json()["total"]
    assert out["read"]["hand"]["win"] == t.win


def test_score_photo_takes_dora_indicators_given_in_place_of_those_read(monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A haku indicator read as a back leaves the dead wall without one: the player names it, and is told when none
    was read at all."""
    concealed = ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "4z", "4z")
    view = TableView(640, 480, _tiles([*concealed, "4z"]), SeenHand(concealed, "4z", ()), dora_indicators=())
    code, out, _ = _score_photo_of(view, monkeypatch, capsys, "--tsumo")
    assert code == 0 and out["read"]["warnings"] == [NO_DORA] and out["han"] == 1
    code, out, _ = _score_photo_of(view, monkeypatch, capsys, "--tsumo", "--dora", "1m", "--dora", "3z")
    assert code == 0 and out["read"]["dora_indicators"] == ["1m", "3z"]
    assert out["read"]["warnings"] == ["dora indicators as given: 1m3z (read from the photo: none)"]
    assert out["han"] == 1 + 1 + 3  # tsumo, dora 2m, dora 4z x3
    code, out, _ = _score_photo_of(dataclasses.replace(view, dora_indicators=("3z",)), monkeypatch, capsys, "--tsumo",
                                   "--dora", "")  # none, whatever was read (a misread indicator, no dead wall)
    assert code == 0 and out["han"] == 1 and out["read"]["dora_indicators"] == []
    assert out["read"]["warnings"] == ["dora indicators as given: none (read from the photo: 3z)"]
    code, _, err = _score_photo_of(view, monkeypatch, capsys, "--dora", "1x")
    assert code == 2 and "--dora 1x: unknown suit" in err


@pytest.mark.parametrize(("preset", "shown", "want"), [
    ("tenhou", ("5s", "5s", "5s", "5s"), ("0s", "5s", "5s", "5s")),  # one red 5s in the set, hidden by a back
    ("tenhou", ("5s", "0s", "5s", "5s"), ("5s", "0s", "5s", "5s")),  # the red one shows: nothing hidden
    ("ema", ("5s", "5s", "5s", "5s"), ("5s", "5s", "5s", "5s")),  # no red fives in these rules
])
def test_a_closed_kan_of_fives_holds_the_red_five_its_backs_hide(preset: str, shown: tuple[str, ...],
                                                                  want: tuple[str, ...]) -> None:
    """Fixed: a closed kan of fives shows two plain fives between its backs, so score-photo refused it under rules
    with red fives ("4 plain 5s shown, but 1 of the four 5s in this set is red"). The kan holds all four fives of
    the suit, the red one too: it is named and counted as aka dora, with a note."""
    concealed = ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z")
    view = TableView(640, 480, _tiles([*concealed, "2z", *shown]),
                     SeenHand(concealed, "2z", (SeenMeld("closed-kan", shown, None),)))
    rules = get_preset(preset).hand
    out = with_hidden_red_fives(view, rules)
    assert out.hand.melds[0].tiles == want
    assert bool(out.warnings) == (want != shown)
    validate_hand(hand_from_view(out), (), (), rules)  # a hand the scoring engine takes


@pytest.mark.parametrize(("preset", "fives", "kan", "note"), [
    ("ema", ("5m", "5p", "5m"), ("5s", "5s", "5s", "5s"), "play without red fives: the red 5p scored as a plain 5p"),
    ("tenhou", ("0m", "0p", "5m"), ("0s", "5s", "5s", "5s"), "count 1 red 5m; 1 more scored as plain 5m"),
])
def test_red_fives_the_rules_do_not_count_are_scored_as_plain_fives(preset, fives, kan, note) -> None:
    """The table's set shows red fives its rules lack (EMA has none; Tenhou one a suit): the photo cannot be typed
    otherwise, so they are scored as plain fives, saying so, where validate_hand refused the hand before. The hand's
    are kept red first, an indicator's last (it is worth nothing)."""
    concealed = ("3m", "4m", "0m", "4p", "6p", "7s", "8s", "9s", "2z", "2z")
    kan_read = ("0s", "5s", "0s", "5s")
    view = TableView(640, 480, _tiles([*concealed, "0p", *kan_read, "0m"]),
                     SeenHand(concealed, "0p", (SeenMeld("closed-kan", kan_read, None),)), dora_indicators=("0m",))
    rules = get_preset(preset).hand
    out = with_set_red_fives(view, rules)
    assert (out.hand.concealed[2], out.hand.win, out.dora_indicators[0]) == fives
    assert out.hand.melds[0].tiles == kan
    assert any(note in w for w in out.warnings)
    validate_hand(hand_from_view(out), tuple(map(parse_tile, out.dora_indicators)), (), rules)


RIICHI_SEEN = ("the winner's pond shows a riichi discard (lying sideways), but --riichi was not given: counted "
               "without riichi")


@pytest.mark.parametrize(("flags", "melds", "noted"), [
    ((), (), True),
    (("--riichi",), (), False),
    ((), (SeenMeld("pon", ("7z", "7z", "7z"), "left"),), False),  # an open hand cannot have declared riichi
], ids=["not given", "given", "open hand"])
def test_score_photo_notes_a_riichi_discard_in_the_winners_pond_when_riichi_is_not_given(
        flags: tuple[str, ...], melds: tuple[SeenMeld, ...], noted: bool, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    concealed = ("1m", "2m", "3m", "4p", "5p", "6p", "2z", "2z", "4m", "5m") + (() if melds else ("7s", "8s", "9s"))
    view = TableView(640, 480, _tiles([*concealed, "6m"]), SeenHand(concealed, "6m", melds),
                     ponds=(Pond("near", ("9m", "1z", "3p"), 1), Pond("across", ("4z", "9p"), 0)))
    code, out, _ = _score_photo_of(view, monkeypatch, capsys, "--tsumo", *flags)
    assert code == 0 and (RIICHI_SEEN in out["read"]["warnings"]) == noted


@pytest.mark.parametrize("args", [("score-photo", "table.jpg", "--win", "4s", "--win", "8s"),
                                  ("read", "table.jpg", "--overlay", "a.jpg", "--overlay", "b.jpg")])
def test_a_one_value_option_given_twice_is_refused(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """Fixed (an acceptance run): the later --win scored the hand, and only the later overlay was written."""
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    assert stop.value.code == 2 and "is given twice: give it once" in capsys.readouterr().err
