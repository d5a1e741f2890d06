"""The replay camera keeps what a photo's file says (`vision.photo.open_photo`'s notes: an animation read from its
first frame, a file cut short read as far as it goes), and the scan's proposal shows it as `jantaku read` does."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import pytest
from helpers_device import make_assistant
from PIL import Image

from device.camera import ReplayCamera
from device.config import SAMPLE_PHOTOS
from device.recognition import ManualReader, VisionReader
from vision.cli import read_photo

HAND = "44m57p777s666777z"  # sample photo 03, won on 6p
CUT = "the file is cut short (copied only in part?): the bottom 23% of the photo is missing (drawn black)"
ANIMATED = "the photo is an animation (a GIF, 2 frames): its first frame was read"
PALETTE = "the photo has only 256 colours (a GIF, or a PNG saved with a palette)"


@pytest.fixture(scope="module")
def replay_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sample photo 03 as a PNG cut short in copying (a fifth of its bytes missing) and as a GIF of two frames (the
    second upside down), beside a plain JPEG."""
    folder = tmp_path_factory.mktemp("replay")
    img = cv2.imread(str(SAMPLE_PHOTOS / "03-synthetic-mangan.jpg"))
    png = cv2.imencode(".png", img)[1].tobytes()
    (folder / "cut.png").write_bytes(png[:len(png) * 4 // 5])
    still = Image.fromarray(img[..., ::-1])
    still.save(folder / "moving.gif", save_all=True, append_images=[still.rotate(180)], duration=500, loop=0)
    shutil.copy(SAMPLE_PHOTOS / "03-synthetic-mangan.jpg", folder / "plain.jpg")
    return folder


def test_the_replay_camera_keeps_a_files_notes_in_the_photo_it_gives(replay_folder: Path) -> None:
    from device.camera import file_notes

    camera = ReplayCamera(replay_folder)
    assert [p.name for p in camera.photos] == ["cut.png", "moving.gif", "plain.jpg"]  # a GIF is a photo too
    shots = {name: (camera.select(name), camera.capture())[1] for name in ("cut.png", "moving.gif", "plain.jpg")}
    assert [n[:len(CUT)] for n in file_notes(shots["cut.png"].jpeg)] == [CUT]
    assert [n[:len(ANIMATED)] for n in file_notes(shots["moving.gif"].jpeg)] == [ANIMATED]
    assert shots["plain.jpg"].jpeg == (replay_folder / "plain.jpg").read_bytes()  # a whole JPEG is kept as it is
    assert file_notes(shots["plain.jpg"].jpeg) == ()
    assert shots["moving.gif"].jpeg[:8] == b"\x89PNG\r\n\x1a\n"  # lossless: the GIF's palette is still there to see


def test_a_scan_from_the_replay_folder_shows_the_notes_jantaku_read_shows(replay_folder: Path, tmp_path: Path) -> None:
    """Through the table device (camera, stored scan, recognizer, proposal): each note `jantaku read` gives the file
    is among the proposal's warnings, first, and the hand is read alike."""
    from vision.recognizer import Recognizer

    a = make_assistant(tmp_path, camera_replay_folder=str(replay_folder))
    a.reader = VisionReader(Recognizer())
    a.start_game(["A", "B", "C", "D"], "tenhou")
    for name, first in (("cut.png", CUT), ("moving.gif", ANIMATED)):
        read, _ = read_photo(str(replay_folder / name))
        proposal = a.scan_hand(winner=0, tsumo=True, photo=name)
        assert proposal.warnings[0].startswith(first)
        assert [w for w in read.warnings if w not in proposal.warnings] == []
        assert (proposal.concealed, proposal.win) == (HAND, "6p")
        a.discard_proposal()
    assert any(w.startswith(PALETTE) for w in proposal.warnings)


def test_the_notes_are_shown_when_no_tiles_are_read(replay_folder: Path) -> None:
    """With the recognizer switched off the keeper types the hand: a file cut short still says what is missing."""
    camera = ReplayCamera(replay_folder)
    camera.select("cut.png")
    reading = ManualReader("switched off").read(camera.capture().jpeg)
    assert reading.warnings[0].startswith(CUT) and reading.warnings[1].startswith("tiles not read: switched off")


def test_only_the_notes_the_replay_camera_wrote_are_read(tmp_path: Path) -> None:
    """A phone's own JPEG comment or PNG text, or bytes that are no image, carry no notes."""
    from device.camera import file_notes

    img = Image.new("RGB", (64, 48), "white")
    img.save(tmp_path / "phone.jpg", comment=b"Taken at the club, 2024")
    img.save(tmp_path / "odd.jpg", comment=b'jantaku-notes\n{"not": "a list"}')
    for name in ("phone.jpg", "odd.jpg"):
        assert file_notes((tmp_path / name).read_bytes()) == ()
    assert file_notes(b"\xff\xd8 not really a jpeg") == ()
    assert file_notes((SAMPLE_PHOTOS / "01-added-kan.jpg").read_bytes()) == ()


def test_a_glare_spot_is_still_noted_in_a_heic_the_replay_camera_keeps_as_jpeg(tmp_path: Path) -> None:
    """A HEIC is kept as a JPEG (lossy again): the clipped white of a flash's spot must stay clipped for the reader
    to say tiles may be missed under it, as `jantaku read` says of the HEIC itself."""
    from pillow_heif import register_heif_opener

    from vision.recognizer import Recognizer

    register_heif_opener()
    img = cv2.imread(str(SAMPLE_PHOTOS / "03-synthetic-mangan.jpg"))
    cv2.circle(img, (600, 450), 70, (255, 255, 255), -1)  # a glare spot among the tiles, 1.2 % of the photo
    folder = tmp_path / "replay"
    folder.mkdir()
    Image.fromarray(img[..., ::-1]).save(folder / "flash.heic", quality=90)
    read, _ = read_photo(str(folder / "flash.heic"))
    shot = ReplayCamera(folder).capture()
    reading = VisionReader(Recognizer()).read(shot.jpeg)
    glare = [w for w in read.warnings if w.startswith("a bright glare spot")]
    assert shot.jpeg[:2] == b"\xff\xd8" and glare and glare[0] in reading.warnings
