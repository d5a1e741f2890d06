"""Procedural tile faces (vision/faces.py): every face in many styles, red fives, determinism, font handling."""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image

from vision import faces
from vision.faces import (
    BACK,
    FACE_NAMES,
    NoCJKFontError,
    bgr_textures,
    find_cjk_fonts,
    random_style,
    render_face,
    render_set,
)

FONTS = find_cjk_fonts()
needs_fonts = pytest.mark.skipif(not FONTS, reason="no CJK font installed (" + faces.INSTALL_HINT + ")")


def red_fraction(img: np.ndarray) -> float:
    """Share of clearly red pixels (the red of 中, red pips and red fives; not the pinkish crystal body)."""
    r, g, b = (img[:, :, i].astype(int) for i in range(3))
    return float(((r >= 150) & (g <= 105) & (b <= 115) & (r - g >= 80)).mean())


def style(seed: int, **changes) -> faces.FaceStyle:
    return replace(random_style(np.random.default_rng(seed)), **changes)


def test_face_names_are_the_37_faces() -> None:
    assert len(FACE_NAMES) == 37
    assert {"0m", "0p", "0s", "1z", "7z", "9s"} <= set(FACE_NAMES)


@needs_fonts
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("size", [(120, 160), (48, 64)])
def test_every_face_renders_at_the_requested_size_and_all_differ(seed: int, size: tuple[int, int]) -> None:
    st = random_style(np.random.default_rng(seed))
    images = render_set(st, size)
    assert set(images) == set(FACE_NAMES) | {BACK}
    for name, img in images.items():
        assert img.shape == (size[1], size[0], 3), name
        assert img.dtype == np.uint8
        if name not in ("5z", BACK):  # a blank white dragon and a plain back may be flat
            assert img.std() > 12, f"{name} looks empty"
    # no two faces of one style are the same picture
    assert len({img.tobytes() for img in images.values()}) == 38


@needs_fonts
@pytest.mark.parametrize("seed", range(6))
def test_red_fives_are_clearly_redder_than_plain_fives(seed: int) -> None:
    st = random_style(np.random.default_rng(seed))
    for suit in "mps":
        red, plain = red_fraction(render_face("0" + suit, st)), red_fraction(render_face("5" + suit, st))
        assert red > plain + 0.004, (suit, st.red_five, red, plain)


@needs_fonts
@pytest.mark.parametrize("red_five", ["all", "dot", "crystal"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_plain_fives_without_red_ink_have_no_red_and_red_fives_do(seed: int, red_five: str) -> None:
    # pins and sticks without a red centre (the flower pip has a red heart), man characters in black and blue:
    # only the red five may be red
    st = style(seed, red_five=red_five, five_centre_red=False, numeral_ink=(20, 20, 20), man_ink=(30, 70, 160),
               pin_design=("ring", "solid", "double", "spoke")[seed])
    for suit in "mps":
        assert red_fraction(render_face("5" + suit, st)) < 0.0005, suit
        assert red_fraction(render_face("0" + suit, st)) > (0.004 if red_five == "dot" else 0.04), suit


@needs_fonts
def test_red_dragon_is_red_and_green_dragon_is_not() -> None:
    st = random_style(np.random.default_rng(11))
    assert red_fraction(render_face("7z", st)) > 0.05
    assert red_fraction(render_face("6z", st)) == 0.0


@needs_fonts
def test_back_is_the_style_back_colour() -> None:
    st = style(4, back_colour=(40, 90, 180), edge_shade=0.0)
    back = render_face("back", st, (60, 80))
    assert np.abs(back.reshape(-1, 3).mean(axis=0) - np.array([40, 90, 180])).max() < 8


@needs_fonts
def test_bgr_textures_match_the_rgb_faces() -> None:
    st = random_style(np.random.default_rng(9))
    faces_bgr, body, back = bgr_textures(st, (60, 80))
    assert tuple(faces_bgr) == FACE_NAMES
    assert np.array_equal(faces_bgr["0s"], render_face("0s", st, (60, 80))[:, :, ::-1])
    assert body == st.face_colour[::-1]
    assert back.shape == (80, 60, 3) and np.array_equal(back, render_face(BACK, st, (60, 80))[:, :, ::-1])


@needs_fonts
def test_a_seed_gives_the_same_style_and_image() -> None:
    a, b = random_style(np.random.default_rng(42)), random_style(np.random.default_rng(42))
    assert a == b
    assert np.array_equal(render_face("7p", a), render_face("7p", b))


@needs_fonts
def test_different_seeds_give_different_looks() -> None:
    styles = [random_style(np.random.default_rng(s)) for s in range(12)]
    pictures = {render_face("5p", s).tobytes() for s in styles}
    assert len(pictures) == 12
    assert len({s.pin_design for s in styles}) >= 3
    assert len({s.back_colour for s in styles}) >= 6


@needs_fonts
def test_unknown_face_is_refused() -> None:
    st = random_style(np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown tile face '8z'"):
        render_face("8z", st)
    with pytest.raises(ValueError, match="too small"):
        render_face("1m", st, (4, 4))


def test_no_cjk_font_raises_a_clear_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(faces, "SYSTEM_FONT_DIRS", (str(tmp_path / "missing"),))
    dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if os.path.exists(dejavu):  # a font without CJK glyphs does not count
        (tmp_path / "latin").mkdir()
        os.symlink(dejavu, tmp_path / "latin" / "DejaVuSans.ttf")
        monkeypatch.setenv("JANTAKU_FONT_DIRS", str(tmp_path / "latin"))
    else:
        monkeypatch.delenv("JANTAKU_FONT_DIRS", raising=False)
    assert find_cjk_fonts() == ()
    with pytest.raises(NoCJKFontError, match="fonts-noto-cjk.*JANTAKU_FONT_DIRS"):
        random_style(np.random.default_rng(0))


@needs_fonts
def test_a_single_font_from_jantaku_font_dirs_is_enough(tmp_path, monkeypatch) -> None:
    src, index = FONTS[-1]
    link = tmp_path / ("only" + os.path.splitext(src)[1])
    os.symlink(src, link)
    monkeypatch.setattr(faces, "SYSTEM_FONT_DIRS", ())
    monkeypatch.setenv("JANTAKU_FONT_DIRS", str(tmp_path))
    assert find_cjk_fonts() == ((str(link), 0),)
    st = random_style(np.random.default_rng(3))
    assert st.numeral_font == st.man_font == st.honour_font == (str(link), 0)
    assert render_face("1z", st).std() > 12


@needs_fonts
def test_preview_sheet(tmp_path) -> None:
    out = tmp_path / "sheet.png"
    assert faces.main([str(out), "--seed", "1", "--styles", "2"]) == 0
    with Image.open(out) as img:
        assert img.size == (38 * (72 + 4) + 4, 2 * (96 + 8))
