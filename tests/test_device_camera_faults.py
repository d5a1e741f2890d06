"""A camera that fails: at start (the table runs without one), mid-game (503 with the reason, nothing lost),
or a replayed photo that is corrupt (the hand is typed instead). Never a traceback page."""

from __future__ import annotations

import importlib.util
import shutil

import pytest
from helpers_device import make_assistant

from device.camera import CameraError, NoCamera, open_camera, open_camera_or_none
from device.config import SAMPLE_PHOTOS, CameraConfig
from device.recognition import ManualReader
from web import create_app

PIN = "13579"


def keeper(app):
    client = app.test_client()
    token = client.post("/api/login", json={"pin": PIN}).get_json()["csrf_token"]
    return client, {"X-CSRF-Token": token}


def app_for(assistant):
    app = create_app(assistant.config, assistant)
    app.testing = False  # real error handlers: what a phone would see
    return app


def events(assistant):
    return len(assistant.store.events(assistant.game_id()))


def test_a_replay_photo_gone_mid_game_is_a_503_and_nothing_is_lost(tmp_path):
    photos = tmp_path / "photos"
    shutil.copytree(SAMPLE_PHOTOS, photos)
    a = make_assistant(tmp_path, camera_replay_folder=str(photos))
    a.start_game(["A", "B", "C", "D"], "tenhou")
    a.declare_riichi(1)
    client, h = keeper(app_for(a))
    (photos / "01-added-kan.jpg").unlink()
    resp = client.post("/api/scan", json={"winner": 0, "tsumo": True}, headers=h)
    assert resp.status_code == 503
    assert "01-added-kan.jpg cannot be read" in resp.get_json()["error"]
    assert events(a) == 2 and a.snapshot()["game"]["seats"][1]["riichi"] is True
    assert a.status == "error" and "cannot be read" in a.status_message  # the status LED blinks fast
    resp = client.post("/api/scan", json={"winner": 0, "tsumo": True}, headers=h)  # the next photo still works
    assert resp.status_code == 200 and resp.get_json()["proposal"]["photo"] == "02-seven-pairs.jpg"


def test_a_camera_that_breaks_mid_run_is_a_503_with_the_reason(tmp_path):
    a = make_assistant(tmp_path)
    a.start_game(["A", "B", "C", "D"], "tenhou")

    class Unplugged:
        description = "a camera that was unplugged"

        def capture(self):
            raise RuntimeError("Device or resource busy")

    a.camera = Unplugged()
    client, h = keeper(app_for(a))
    for path, body in (("/api/scan", {"winner": 0, "tsumo": True}), ("/api/furiten", {"seat": 0, "read_pond": True})):
        resp = client.post(path, json=body, headers=h)
        assert resp.status_code == 503, path
        assert resp.get_json()["error"] == "camera failed: RuntimeError: Device or resource busy"
    assert a.status == "error" and events(a) == 1 and a.proposal is None
    resp = client.post("/api/riichi", json={"seat": 2}, headers=h)  # the game goes on without the camera
    assert resp.status_code == 200 and events(a) == 2


def test_a_corrupt_replay_photo_proposes_nothing_and_says_why(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "broken.jpg").write_bytes(b"\xff\xd8 this is not really a jpeg")
    a = make_assistant(tmp_path, camera_replay_folder=str(photos))
    a.reader = ManualReader("test")
    a.start_game(["A", "B", "C", "D"], "tenhou")
    client, h = keeper(app_for(a))
    resp = client.post("/api/scan", json={"winner": 0, "tsumo": True}, headers=h)
    assert resp.status_code == 200
    proposal = resp.get_json()["proposal"]
    assert proposal["concealed"] == "" and proposal["image"] == {}
    assert "not a readable image" in proposal["warnings"][0]
    resp = client.put("/api/proposal", json={"concealed": "123m456p789s1122z", "win": "2z"}, headers=h)
    assert resp.status_code == 200 and resp.get_json()["proposal"]["error"] == ""  # typed instead, it scores


def test_an_empty_photo_folder_at_start_runs_the_table_without_a_camera(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    config = CameraConfig(source="replay", replay_folder=str(empty))
    with pytest.raises(CameraError, match="holds no photos"):
        open_camera(config)
    camera = open_camera_or_none(config)
    assert isinstance(camera, NoCamera) and "holds no photos" in camera.description
    a = make_assistant(tmp_path)
    a.camera = camera
    a.start_game(["A", "B", "C", "D"], "tenhou")
    client, h = keeper(app_for(a))
    assert client.get("/api/state").get_json()["device"]["camera"].startswith("none (replay folder")
    resp = client.post("/api/scan", json={"winner": 0, "tsumo": True}, headers=h)
    assert resp.status_code == 503 and resp.get_json()["error"].startswith("no camera: replay folder")


def test_files_named_as_photos_that_are_not_are_left_out_of_the_replay_at_start(tmp_path, caplog):
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "notes.jpg").write_text("the scores of last week, saved with the wrong name")
    (photos / "old.png").mkdir()
    with pytest.raises(CameraError, match="holds no photos .*; 2 named so are not photos inside"):
        open_camera(CameraConfig(source="replay", replay_folder=str(photos)))
    shutil.copy(SAMPLE_PHOTOS / "02-seven-pairs.jpg", photos)
    camera = open_camera(CameraConfig(source="replay", replay_folder=str(photos)))
    assert camera.description.startswith("replay of 1 photo(s)") and camera.capture().name == "02-seven-pairs.jpg"
    assert "skipping notes.jpg, old.png (not a photo inside" in caplog.text


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="a Pi with picamera2")
def test_a_named_camera_that_is_not_there_is_a_camera_error_not_a_traceback():
    with pytest.raises(CameraError, match="picamera2 cannot be opened"):
        open_camera(CameraConfig(source="picamera2"))
