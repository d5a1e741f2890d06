"""A small smoke run of the scene generator: deterministic, exact labels, dataset files, layout on perfect labels."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from vision.art import DEFAULT_ART, load_face_sets
from vision.classes import CROP_CLASSES, DET_CLASSES, FACES, SYMMETRIC, det_class, is_horizontal
from vision.layout import build_view
from vision.synth import make_scene
from vision.view import SeenTile

pytestmark = pytest.mark.skipif(not (DEFAULT_ART / "Regular" / "Man1.png").exists(),
                                reason=f"FluffyStuff tile art not found at {DEFAULT_ART} (set JANTAKU_TILE_ART)")


def test_scene_is_determined_by_its_seed() -> None:
    a = make_scene(11, size=(480, 360), fonts=False)
    b = make_scene(11, size=(480, 360), fonts=False)
    c = make_scene(12, size=(480, 360), fonts=False)
    assert np.array_equal(a.image, b.image)
    assert a.labels == b.labels
    assert not np.array_equal(a.image, c.image)


def test_labels_are_exact_and_consistent() -> None:
    scene = make_scene(5, size=(640, 480), fonts=False)
    h, w = scene.image.shape[:2]
    assert (w, h) == (640, 480) and scene.image.dtype == np.uint8
    assert len(scene.labels) >= 14
    for lb in scene.labels:
        x1, y1, x2, y2 = lb.box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        assert lb.name in FACES or lb.name == "back"
        assert lb.det == det_class(lb.name != "back", lb.orientation)
        assert lb.orientation in (0, 90, 180, 270)
    t = scene.truth
    shown = [*t.concealed, t.win, *(x for m in t.melds for x in m.tiles), *t.dora_indicators,
             *(x for p in t.ponds.values() for x in p)]
    kinds = Counter("5" + x[1] if x[0] == "0" else x for x in shown)
    assert max(kinds.values()) <= 4
    assert len(t.concealed) + 3 * len(t.melds) == 13


def test_generator_works_without_fonts_and_both_fluffy_styles_load() -> None:
    sets = load_face_sets(None, False)
    assert [s.name for s in sets] == ["fluffy-regular", "fluffy-black"]
    assert all(set(s.faces) == set(FACES) for s in sets)


def test_class_lists() -> None:
    assert len(FACES) == 37 and "0m" in FACES and "7z" in FACES
    assert DET_CLASSES == ("face_v", "face_h", "back_v", "back_h")
    assert "1m_r" in CROP_CLASSES and "8p_r" not in CROP_CLASSES and "back" in CROP_CLASSES
    assert len(CROP_CLASSES) == 38 + 37 - len(SYMMETRIC)


def test_dataset_writer(tmp_path: Path) -> None:
    from vision.dataset import generate

    generate(tmp_path, 2, 1, seed=3, crops_per_scene=5, quiet=True)
    labels = sorted((tmp_path / "det" / "labels" / "train").glob("*.txt"))
    assert len(labels) == 2
    for path in labels:
        for line in path.read_text().splitlines():
            cls, *nums = line.split()
            assert 0 <= int(cls) < 4 and all(0.0 <= float(v) <= 1.0 for v in nums)
    crops = list((tmp_path / "cls" / "train").glob("*/*.png"))
    assert len(crops) == 10
    assert "names:" in (tmp_path / "det" / "data.yaml").read_text()


def _perfect(scene) -> list[SeenTile]:
    return [SeenTile(lb.name, lb.box, 1.0, horizontal=is_horizontal(lb.det),
                     orientation=None if lb.name in SYMMETRIC or lb.name == "back" else lb.orientation)
            for lb in scene.labels]


def test_layout_reads_rendered_close_ups_from_perfect_labels() -> None:
    """With exact detections the layout recovers the whole hand in most close-up photos (measured: 35 of 40)."""
    exact = 0
    seeds = range(8)
    for seed in seeds:
        scene = make_scene(seed, kind="closeup", fonts=False)
        view = build_view(_perfect(scene), scene.image.shape[1], scene.image.shape[0])
        t = scene.truth
        exact += (list(view.hand.concealed) == t.concealed and view.hand.win == t.win
                  and [(m.kind, list(m.tiles), m.source) for m in view.hand.melds]
                  == [(m.kind, m.tiles, m.source) for m in t.melds]
                  and list(view.dora_indicators) == t.dora_indicators)
    assert exact >= 6
