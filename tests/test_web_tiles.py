"""Tile pictures at /tiles/<code>.png: FluffyStuff art from a folder, else faces drawn by vision.faces, else 404
(the pages show text tiles). The art is never in the repository."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from helpers_device import make_assistant
from PIL import Image

from web import create_app
from web.tiles import CODES, art_file, find_art

REPO = Path(__file__).resolve().parent.parent
SHARED_ART = REPO.parent / "shared" / "tiles" / "fluffystuff" / "Export" / "Regular"
RED = (220, 20, 20, 255)


def fake_art(folder: Path) -> Path:
    """A FluffyStuff-shaped folder: an ivory front, a back, and transparent face sheets (red for the red fives)."""
    folder.mkdir(parents=True)
    Image.new("RGBA", (60, 80), (250, 246, 240, 255)).save(folder / "Front.png")
    Image.new("RGBA", (60, 80), (255, 115, 115, 255)).save(folder / "Back.png")
    for code in CODES[:-1]:
        face = Image.new("RGBA", (60, 80), (0, 0, 0, 0))
        face.paste(RED if code[0] == "0" else (20, 20, 20, 255), (20, 30, 40, 50))
        face.save(folder / art_file(code))
    return folder


def client_for(tmp_path, **overrides):
    assistant = make_assistant(tmp_path, **overrides)
    app = create_app(assistant.config, assistant)
    return app.test_client(), app


def png_of(resp) -> Image.Image:
    assert resp.status_code == 200 and resp.mimetype == "image/png", resp.get_data(as_text=True)[:200]
    return Image.open(io.BytesIO(resp.data))


def test_our_codes_map_to_fluffystuff_names():
    assert [art_file(c) for c in ("1m", "5m", "0m", "9p", "0s", "1z", "4z", "5z", "6z", "7z", "back")] == [
        "Man1.png", "Man5.png", "Man5-Dora.png", "Pin9.png", "Sou5-Dora.png", "Ton.png", "Pei.png", "Haku.png",
        "Hatsu.png", "Chun.png", "Back.png"]
    assert len(CODES) == 38 and len({art_file(c) for c in CODES}) == 38


@pytest.mark.skipif(not SHARED_ART.is_dir(), reason="no shared FluffyStuff checkout beside the repo")
def test_every_code_has_a_file_in_the_real_art_and_the_clone_finds_it():
    assert all((SHARED_ART / art_file(c)).is_file() for c in CODES)
    assert find_art() == SHARED_ART


def test_configured_art_folder_is_composited_and_served(tmp_path):
    art = fake_art(tmp_path / "art")
    client, app = client_for(tmp_path, tile_art=str(art))
    red_five = png_of(client.get("/tiles/0m.png"))
    assert red_five.size == (72, 96)
    assert red_five.convert("RGB").getpixel((36, 48))[0] > 200 > red_five.convert("RGB").getpixel((36, 48))[1]
    assert red_five.convert("RGB").getpixel((4, 4)) == (250, 246, 240)  # the front under the face
    plain = png_of(client.get("/tiles/5m.png")).convert("RGB")
    assert plain.getpixel((36, 48)) == (20, 20, 20)
    assert png_of(client.get("/tiles/back.png")).convert("RGB").getpixel((36, 48)) == (255, 115, 115)
    assert app.extensions["jantaku.tiles"].mode == "art"
    assert client.get("/healthz").get_json()["device"]["tiles"] == "art"
    assert client.get("/tiles/0m.png").headers["Cache-Control"].startswith("public")


def test_a_fluffystuff_checkout_is_found_by_walking_up(tmp_path):
    art = fake_art(tmp_path / "shared" / "tiles" / "fluffystuff" / "Export" / "Regular")
    assert find_art(start=tmp_path / "main" / "web" / "tiles.py") == art
    assert find_art(str(tmp_path / "shared" / "tiles" / "fluffystuff")) == art  # a whole checkout configured


def test_without_art_the_faces_are_drawn_with_a_cjk_font(tmp_path):
    from vision.faces import find_cjk_fonts

    if not find_cjk_fonts():
        pytest.skip("no CJK font installed (fonts-ipafont-gothic)")
    client, app = client_for(tmp_path, tile_art=str(tmp_path / "no-art-here"))
    assert app.extensions["jantaku.tiles"].mode == "faces"
    east = png_of(client.get("/tiles/1z.png")).convert("RGB")
    assert east.size == (72, 96)
    face = east.getpixel((3, 3))
    ink = sum(1 for x in range(72) for y in range(96)
              if sum(abs(a - b) for a, b in zip(east.getpixel((x, y)), face, strict=True)) > 150)
    assert ink > 300  # the character 東 is drawn, not a blank face
    assert client.get("/tiles/1z.png").data == client.get("/tiles/1z.png").data  # one fixed style, cached


def test_without_art_or_font_the_route_says_so_and_pages_use_text(tmp_path, monkeypatch):
    import vision.faces

    def no_font(rng):
        raise vision.faces.NoCJKFontError("no CJK font found (test)")

    monkeypatch.setattr(vision.faces, "random_style", no_font)
    client, app = client_for(tmp_path, tile_art=str(tmp_path / "no-art-here"))
    resp = client.get("/tiles/5p.png")
    assert resp.status_code == 404
    assert "text tiles" in resp.get_json()["error"] and "no CJK font" in resp.get_json()["error"]
    assert app.extensions["jantaku.tiles"].mode == "text"
    js = client.get("/static/common.js").get_data(as_text=True)
    assert "tile-text" in js and 'addEventListener("error"' in js


def test_unknown_tile_code_is_404_with_the_reason(tmp_path):
    client, _ = client_for(tmp_path, tile_art=str(fake_art(tmp_path / "art")))
    for code in ("8z", "10m", "..%2Fsecret_key", "x"):
        resp = client.get(f"/tiles/{code}.png")
        assert resp.status_code == 404, code
    assert "no tile '8z'" in client.get("/tiles/8z.png").get_json()["error"]


def test_a_broken_art_file_is_a_500_with_the_reason_not_a_traceback(tmp_path):
    art = fake_art(tmp_path / "art")
    (art / "Pin3.png").write_bytes(b"not a png")
    client, _ = client_for(tmp_path, tile_art=str(art))
    resp = client.get("/tiles/3p.png")
    assert resp.status_code == 500 and "tile 3p cannot be drawn" in resp.get_json()["error"]
    assert client.get("/tiles/4p.png").status_code == 200


def test_tile_art_is_not_in_the_repository():
    assert not (REPO / "web" / "static" / "tiles").exists()
    assert not list((REPO / "web").rglob("*.png"))


def test_install_script_refuses_a_tile_art_folder_without_art(tmp_path):
    # exits before anything is installed (and before the root check), so this is safe to run anywhere
    bad = subprocess.run(["bash", str(REPO / "deploy" / "install-pi.sh"), "--tile-art", str(tmp_path)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "no FluffyStuff PNGs" in bad.stderr
    text = (REPO / "deploy" / "install-pi.sh").read_text()
    assert "fonts-ipafont-gothic" in text and "/usr/share/jantaku/tiles" in text
