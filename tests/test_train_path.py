"""The training path's commands refuse what they cannot use before torch or ultralytics is loaded.

ultralytics takes a checkpoint name it cannot find for one of its own and asks GitHub for it, and a missing
classification folder for a dataset to download, even offline; both end in a traceback. These tests need no
torch (CI has none): `vision.train` imports it only after its checks pass.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from vision import train

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data folder laid out as vision.dataset writes it (no images needed: nothing gets that far)."""
    (tmp_path / "det").mkdir()
    (tmp_path / "det" / "data.yaml").write_text("path: .\n")
    for split in ("train", "val"):
        (tmp_path / "cls" / split).mkdir(parents=True)
    return tmp_path


@pytest.fixture
def no_training(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Stand-ins for the parts that need torch; records what would have run."""
    ran: list[tuple] = []
    monkeypatch.setattr(train, "offline", lambda threads: ran.append(("offline", threads)))
    monkeypatch.setattr(train, "train_detector", lambda *a: ran.append(("detect", *a)))
    monkeypatch.setattr(train, "train_classifier", lambda *a: ran.append(("classify", *a)))
    monkeypatch.setattr(train, "export", lambda *a: ran.append(("export", *a)))
    return ran


def refused(argv: list[str], capsys: pytest.CaptureFixture) -> str:
    with pytest.raises(SystemExit) as stop:
        train.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("cmd, missing", [("classify", "cls/val"), ("classify", "cls/train"),
                                          ("detect", "det/data.yaml")])
def test_a_data_folder_without_its_part_is_refused(data, no_training, capsys, cmd, missing):
    target = data / missing
    target.unlink() if target.is_file() else target.rmdir()
    err = refused([cmd, "--data", str(data)], capsys)
    assert str(target) in err and "vision.dataset" in err
    assert no_training == []


def test_a_missing_init_checkpoint_is_refused_not_looked_up_online(data, no_training, capsys):
    err = refused(["classify", "--data", str(data), "--init", str(data / "cls6_best.pt")], capsys)
    assert "cls6_best.pt" in err and "--init" in err
    assert no_training == []


@pytest.mark.parametrize("flag, value", [("--epochs", "0"), ("--batch", "0"), ("--imgsz", "16"),
                                         ("--threads", "0"), ("--hours", "0"), ("--warmup", "-1"),
                                         ("--freeze", "-2"), ("--epochs", "three"), ("--hours", "soon")])
def test_numbers_out_of_range_are_refused(data, no_training, capsys, flag, value):
    err = refused(["detect", "--data", str(data), flag, value], capsys)
    assert flag in err and value in err
    assert no_training == []


def test_resume_needs_no_data_check_but_its_run(data, no_training, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(train, "ROOT", tmp_path)
    err = refused(["detect", "--resume", "--name", "det9"], capsys)
    assert str(tmp_path / "runs" / "det9" / "weights" / "last.pt") in err
    (tmp_path / "runs" / "det9" / "weights").mkdir(parents=True)
    (tmp_path / "runs" / "det9" / "weights" / "last.pt").write_bytes(b"")
    assert train.main(["detect", "--resume", "--name", "det9"]) == 0
    assert [r[0] for r in no_training] == ["offline", "detect"]


def test_good_arguments_reach_training(data, no_training):
    init = data / "cls.pt"
    init.write_bytes(b"")
    assert train.main(["classify", "--data", str(data), "--init", str(init), "--epochs", "1", "--imgsz", "96",
                       "--threads", "2"]) == 0
    assert no_training[0] == ("offline", 2)
    assert no_training[1][:5] == ("classify", data, 1, 96, 128)


def test_export_refuses_missing_checkpoints(tmp_path, no_training, capsys):
    det, cls = tmp_path / "det.pt", tmp_path / "cls.pt"
    det.write_bytes(b"")
    err = refused(["export", "--det", str(det), "--cls", str(cls), "--out", str(tmp_path / "m")], capsys)
    assert str(cls) in err and "--cls" in err
    cls.write_bytes(b"")
    assert train.main(["export", "--det", str(det), "--cls", str(cls), str(cls), "--out", str(tmp_path / "m"),
                       "--det-imgsz", "640", "--cls-imgsz", "96"]) == 0
    assert no_training[-1][:2] == ("export", det)


def test_export_sizes_left_out_are_the_trained_ones(tmp_path, no_training):
    det, cls = tmp_path / "det.pt", tmp_path / "cls.pt"
    det.write_bytes(b"")
    cls.write_bytes(b"")
    assert train.main(["export", "--det", str(det), "--cls", str(cls), "--out", str(tmp_path / "m")]) == 0
    assert no_training[-1][4:6] == (None, None)  # export asks the checkpoints
    a, b = Path("cls9.pt"), Path("cls12.pt")
    assert train.input_size(None, {a: 96, b: 96}, "--cls-imgsz") == 96
    assert train.input_size(64, {a: 96}, "--cls-imgsz") == 64  # said outright: as given
    with pytest.raises(SystemExit, match=r"--cls-imgsz: .*cls9.pt: 96, cls12.pt: 64\); give --cls-imgsz"):
        train.input_size(None, {a: 96, b: 64}, "--cls-imgsz")
    with pytest.raises(SystemExit, match="det.pt: None"):
        train.input_size(None, {Path("det.pt"): None}, "--det-imgsz")
    with pytest.raises(SystemExit, match=r"\[640, 480\]"):
        train.input_size(None, {Path("det.pt"): [640, 480]}, "--det-imgsz")

def test_the_training_extra_runs_the_training_tests():
    """tests/test_from_onnx.py is run in the training venv (`.venv-train/bin/python -m pytest ...`), which holds
    only `pip install -e .[train]`: pytest must come with it."""
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["train"]
    names = {r.split(">")[0].split("=")[0].split("[")[0].strip().lower() for r in extra}
    assert {"ultralytics", "onnx", "pytest"} <= names
    said = (ROOT / "tests" / "test_from_onnx.py").read_text()
    assert ".venv-train/bin/python -m pytest tests/test_from_onnx.py" in said



def run_pack_fonts(fonts: Path, cwd: Path) -> subprocess.CompletedProcess:
    """gpu-pack.sh's pack_fonts run by bash as the script runs it (`set -euo pipefail`), with `sub` (fontTools'
    subsetter) replaced by a copy; the rest of the script downloads wheels and rebuilds checkpoints."""
    text = (ROOT / "deploy" / "gpu-pack.sh").read_text()
    found = re.search(r"(?ms)^pack_fonts\(\) {.*?^}\n", text)
    assert found, "gpu-pack.sh has no function pack_fonts"
    (cwd / ".gpu" / "fonts").mkdir(parents=True)
    (cwd / ".gpu" / "sym").mkdir()
    body = 'sub() { cp "$1" "$2"; }\n' + found.group(0) + f'pack_fonts "{fonts}"\necho packed\n'
    return subprocess.run(["bash", "-c", "set -euo pipefail\n" + body], cwd=cwd, capture_output=True, text=True)


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_gpu_pack_names_the_fonts_this_machine_lacks(tmp_path):
    fonts = tmp_path / "fonts"
    for f in ("opentype/ipafont-gothic/ipag.ttf", "truetype/ancient-scripts/Symbola_hint.ttf"):
        (fonts / f).parent.mkdir(parents=True, exist_ok=True)
        (fonts / f).write_bytes(b"font")
    box = tmp_path / "repo"
    done = run_pack_fonts(fonts, box)
    assert done.returncode == 0 and done.stdout == "packed\n", done.stderr
    assert sorted(p.name for p in (box / ".gpu").rglob("*.tt*")) == ["Symbola_hint.ttf", "ipag.ttf"]
    said = done.stderr
    for lacking in ("NotoSansCJK-Regular.ttc", "ipam.ttf", "ukai.ttc", "NotoSansSymbols2-Regular.ttf"):
        assert lacking in said
    assert "ipag.ttf" not in said and "Symbola" not in said and "fonts-symbola" in said


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_gpu_pack_says_nothing_when_every_font_is_there(tmp_path):
    text = (ROOT / "deploy" / "gpu-pack.sh").read_text()
    fonts = tmp_path / "fonts"
    for f in re.findall(r"(?:opentype|truetype)/[\w/-]+\.tt[fc]", text):
        (fonts / f).parent.mkdir(parents=True, exist_ok=True)
        (fonts / f).write_bytes(b"font")
    done = run_pack_fonts(fonts, tmp_path / "repo")
    assert done.returncode == 0 and done.stderr == ""
    assert len(list((tmp_path / "repo" / ".gpu").rglob("*.tt*"))) == 10


def test_the_training_venv_and_the_gpu_box_train_with_one_ultralytics():
    """Round 8 and the CPU fine-tunes were trained with the wheel gpu-pack.sh downloads; an unpinned extra
    would give a fresh training venv whatever PyPI has that day."""
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["train"]
    pinned = [r.split("#")[0].strip() for r in extra if r.startswith("ultralytics")]
    packed = re.search(r"ultralytics==([\d.]+)", (ROOT / "deploy" / "gpu-pack.sh").read_text())
    assert packed and pinned == [f"ultralytics=={packed.group(1)}"]
