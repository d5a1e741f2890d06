"""Train the two stages from scratch (CPU, or a GPU with `--device 0`) and export them to ONNX (extra `.[train]`).

Stage 1 is a YOLOv8n detector built from its yaml (no downloaded weights) with four classes: face-up or face-down,
long axis vertical or horizontal. Stage 2 is a YOLOv8n-cls classifier on 96 px colour crops turned upright by the
detector's axis: 37 faces plus `back`, with `_r` classes for faces turned 180 degrees (see vision.classes).

Everything stays offline (vision.md section 5): YOLO_OFFLINE, no autoinstall, a local TTF seeded as Arial.ttf.
Runs, checkpoints and data live outside the work tree (default /root/jantaku-train) so a later session can resume:

    python -m vision.dataset /root/jantaku-train/data1 --train 1500 --val 120 --seed 1
    python -m vision.train classify --data /root/jantaku-train/data1 --epochs 12
    python -m vision.train detect --data /root/jantaku-train/data1 --epochs 40 [--resume]
    python -m vision.train export --out models
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

ROOT = Path(os.environ.get("JANTAKU_TRAIN_ROOT", "/root/jantaku-train"))
FONT_SOURCES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)


def offline(threads: int) -> None:
    """Environment that keeps ultralytics off the network and inside ROOT; call before importing it."""
    cfg = ROOT / ".yolo"
    (cfg / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(cfg)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    for src in FONT_SOURCES:
        if os.path.exists(src):
            for name in ("Arial.ttf", "Arial.Unicode.ttf"):
                dst = cfg / "Ultralytics" / name
                if not dst.exists():
                    shutil.copy(src, dst)
            break
    os.environ["OMP_NUM_THREADS"] = str(threads)
    import torch

    torch.set_num_threads(threads)
    _without_downloads_or_polars()


def _without_downloads_or_polars() -> None:
    """Two ultralytics habits a bare GPU box cannot meet: its AMP self-check downloads a model, and it reads
    results.csv with polars (a 40 MB wheel). AMP is simply trusted on CUDA; the csv is read with the stdlib."""
    import csv

    from ultralytics.engine import trainer

    trainer.check_amp = lambda model: True
    try:
        import polars  # noqa: F401
    except ImportError:
        def read_results_csv(self) -> dict:
            with open(self.csv, newline="") as f:
                rows = list(csv.DictReader(f))
            return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}

        trainer.BaseTrainer.read_results_csv = read_results_csv


def _resume(run: Path) -> None:
    """Continue `run` from its last finished epoch, with the settings it was started with."""
    from ultralytics import YOLO

    YOLO(str(run / "weights" / "last.pt")).train(resume=True)


def missing_inputs(a: argparse.Namespace) -> str | None:
    """What the command needs on disk and lacks, said before ultralytics is loaded: given a checkpoint or data
    folder it cannot find, ultralytics asks GitHub for a checkpoint of that name or its own site for a dataset,
    offline or not, and ends in a traceback."""
    if a.cmd == "export":
        for flag, paths in (("--det", [a.det]), ("--cls", a.cls)):
            for path in paths:
                if not path.is_file():
                    return f"{flag}: {path} is not a checkpoint file (a run's weights/best.pt, or vision.from_onnx's)"
        return None
    if a.resume:  # the run's own settings say the rest; never fall through to a fresh model from scratch
        last = ROOT / "runs" / a.name / "weights" / "last.pt"
        return None if last.is_file() else (f"--resume: {last} does not exist (no finished epoch); "
                                            "start with --init instead")
    if a.init is not None and not a.init.is_file():
        return f"--init: {a.init} is not a checkpoint file (a run's weights/best.pt, or vision.from_onnx's)"
    parts = [a.data / "det" / "data.yaml"] if a.cmd == "detect" else [a.data / "cls" / s for s in ("train", "val")]
    for part in parts:
        if not part.exists():
            return f"--data: {part} does not exist (write the folder with python -m vision.dataset {a.data} ...)"
    return None


def _at_least(low: float, kind: type = int):
    """An argparse type that refuses numbers below `low` (ultralytics would train nothing, or fail deep inside)."""
    def parse(text: str):
        value = kind(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {text}")
        return value
    parse.__name__ = kind.__name__  # argparse names it in "invalid int value: 'x'"
    return parse


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value


_positive.__name__ = "float"


def _hardware(device: str, workers: int, hours: float | None, cache: bool) -> dict:
    """Settings that differ between this CPU and a GPU box; `hours` replaces the epoch count with a time budget."""
    extra = {"time": hours} if hours else {}
    return {"device": device, "workers": workers, "amp": device != "cpu", "cache": "ram" if cache else False,
            **extra}


def train_detector(data: Path, epochs: int, imgsz: int, batch: int, resume: bool, name: str,
                   init: Path | None = None, warmup: float = 3.0, hw: dict | None = None,
                   freeze: int = 0) -> Path:
    from ultralytics import YOLO

    run = ROOT / "runs" / name
    if resume:
        _resume(run)
        return run
    model = YOLO(str(init)) if init else YOLO("yolov8n.yaml")  # a local checkpoint of ours, never a download
    model.train(data=str(data / "det" / "data.yaml"), epochs=epochs, imgsz=imgsz, batch=batch,
                warmup_epochs=warmup, pretrained=str(init) if init else False,
                project=str(ROOT / "runs"), name=name, exist_ok=True, **(hw or _hardware("cpu", 2, None, False)),
                plots=False, fliplr=0.5, flipud=0.0, degrees=0.0, mosaic=1.0, close_mosaic=3, scale=0.5,
                translate=0.1, hsv_h=0.02, patience=1000, save_period=1, seed=0, deterministic=False, val=True,
                freeze=freeze or None)
    return run


def train_classifier(data: Path, epochs: int, imgsz: int, batch: int, resume: bool, name: str,
                     init: Path | None = None, warmup: float = 3.0, hw: dict | None = None,
                     freeze: int = 0) -> Path:
    from ultralytics import YOLO

    run = ROOT / "runs" / name
    if resume:
        _resume(run)
        return run
    model = YOLO(str(init)) if init else YOLO("yolov8n-cls.yaml")
    model.train(data=str(data / "cls"), epochs=epochs, imgsz=imgsz, batch=batch,
                pretrained=str(init) if init else False, warmup_epochs=warmup, project=str(ROOT / "runs"),
                name=name, exist_ok=True, **(hw or _hardware("cpu", 2, None, False)), plots=False,
                fliplr=0.0, flipud=0.0, erasing=0.0, scale=0.15, hsv_h=0.01, hsv_s=0.4, hsv_v=0.4,
                auto_augment=None, patience=1000, save_period=1, seed=0, deterministic=False, freeze=freeze or None)
    return run


def input_size(given: int | None, trained: dict[Path, object], flag: str) -> int:
    """The size to export at: `given`, else the one size the checkpoints were trained at (`train_args`).

    A model exported at another size than it learnt reads worse without any error (a 96 px classifier at 64)."""
    if given is not None:
        return given
    sizes = list(trained.values())
    if all(isinstance(size, int) and size == sizes[0] for size in sizes):
        return sizes[0]
    said = ", ".join(f"{path.name}: {size}" for path, size in trained.items())
    raise SystemExit(f"{flag}: the checkpoints do not say one training size ({said}); give {flag}")


def _trained_at(model) -> object:
    """The `imgsz` a loaded ultralytics checkpoint was trained at (None when it does not say)."""
    return (model.ckpt or {}).get("train_args", {}).get("imgsz")


def export(det_weights: Path, cls_weights: list[Path], out: Path, det_imgsz: int | None = None,
           cls_imgsz: int | None = None, quantize: bool = False) -> None:
    """ONNX files plus `recognizer.json`, which the onnxruntime reader needs (class names, input sizes).

    Several classifiers make an ensemble: the reader averages their probabilities. `quantize` stores int8
    weights (onnxruntime dynamic quantization: about a quarter of the size, a little slower on x86); needs
    onnxruntime in the training venv. Sizes left out are the ones the checkpoints were trained at.
    """
    from ultralytics import YOLO

    from vision.classes import DET_CLASSES, SYMMETRIC

    det = YOLO(str(det_weights))
    det_names = [det.names[i] for i in range(len(det.names))]
    if tuple(det_names) != DET_CLASSES:
        raise SystemExit(f"detector classes {det_names} differ from {DET_CLASSES}")
    classifiers = [(w, YOLO(str(w))) for w in cls_weights]
    det_imgsz = input_size(det_imgsz, {det_weights: _trained_at(det)}, "--det-imgsz")
    cls_imgsz = input_size(cls_imgsz, {w: _trained_at(m) for w, m in classifiers}, "--cls-imgsz")
    out.mkdir(parents=True, exist_ok=True)
    onnx = {"tile_detector.onnx": Path(det.export(format="onnx", imgsz=det_imgsz, opset=12, simplify=False,
                                                  dynamic=False))}
    names: list[str] = []
    for k, (weights, cls) in enumerate(classifiers):
        these = [cls.names[i] for i in range(len(cls.names))]
        if names and these != names:
            raise SystemExit(f"classifier {weights} has other classes than {cls_weights[0]}")
        names = these
        file = "tile_classifier.onnx" if k == 0 else f"tile_classifier_{k + 1}.onnx"
        onnx[file] = Path(cls.export(format="onnx", imgsz=cls_imgsz, opset=12, simplify=False, dynamic=True))
    for file, exported in onnx.items():
        if quantize:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            quantize_dynamic(str(exported), str(out / file), weight_type=QuantType.QUInt8)
        else:
            shutil.copy(exported, out / file)
    for stale in set(out.glob("tile_classifier_*.onnx")) - {out / f for f in onnx}:
        stale.unlink()
    meta = {"detector": {"file": "tile_detector.onnx", "imgsz": det_imgsz, "classes": det_names},
            "classifier": {"files": [f for f in onnx if f != "tile_detector.onnx"], "imgsz": cls_imgsz,
                           "classes": names},
            "symmetric": sorted(SYMMETRIC), "int8": quantize,
            "weights": {"detector": str(det_weights), "classifier": [str(w) for w in cls_weights]}}
    (out / "recognizer.json").write_text(json.dumps(meta, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for cmd, imgsz, batch, epochs in (("detect", 512, 16, 40), ("classify", 64, 128, 12)):
        s = sub.add_parser(cmd)
        s.add_argument("--data", type=Path, default=ROOT / "data1")
        s.add_argument("--epochs", type=_at_least(1), default=epochs)
        s.add_argument("--imgsz", type=_at_least(32), default=imgsz)
        s.add_argument("--batch", type=_at_least(1), default=batch)
        s.add_argument("--threads", type=_at_least(1), default=1)
        s.add_argument("--name", default="det" if cmd == "detect" else "cls")
        s.add_argument("--resume", action="store_true", help="continue runs/NAME/weights/last.pt")
        s.add_argument("--init", type=Path, default=None,
                       help="start from this local checkpoint with a fresh schedule (e.g. a previous run's last.pt)")
        s.add_argument("--warmup", type=_at_least(0, float), default=3.0, help="warm-up epochs")
        s.add_argument("--device", default="cpu", help="cpu, or a CUDA index such as 0")
        s.add_argument("--workers", type=_at_least(0), default=2,
                       help="data-loading processes (on CPU ultralytics loads in the main process)")
        s.add_argument("--hours", type=_positive, default=None, help="train for this long instead of --epochs")
        s.add_argument("--cache", action="store_true", help="keep decoded images in RAM")
        s.add_argument("--freeze", type=_at_least(0), default=0,
                       help="keep the first N layers as --init has them (10: the detector's backbone)")
    e = sub.add_parser("export")
    e.add_argument("--det", type=Path, default=ROOT / "runs" / "det" / "weights" / "last.pt")
    e.add_argument("--cls", type=Path, nargs="+", default=[ROOT / "runs" / "cls" / "weights" / "best.pt"],
                   help="one classifier, or several for an ensemble (their probabilities are averaged)")
    e.add_argument("--det-imgsz", type=_at_least(32), default=None,
                   help="detector input side (default: the size --det was trained at)")
    e.add_argument("--cls-imgsz", type=_at_least(32), default=None,
                   help="classifier input side (default: the size the --cls checkpoints were trained at)")
    e.add_argument("--out", type=Path, default=Path("models"))
    e.add_argument("--quantize", action="store_true", help="int8 weights (dynamic quantization)")
    a = p.parse_args(argv)
    if problem := missing_inputs(a):
        p.error(problem)
    offline(getattr(a, "threads", 2))
    if a.cmd in ("detect", "classify"):
        train = train_detector if a.cmd == "detect" else train_classifier
        train(a.data, a.epochs, a.imgsz, a.batch, a.resume, a.name, a.init, a.warmup,
              _hardware(a.device, a.workers, a.hours, a.cache), a.freeze)
    else:
        export(a.det, a.cls, a.out, a.det_imgsz, a.cls_imgsz, a.quantize)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
