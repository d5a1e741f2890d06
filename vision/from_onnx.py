"""Trainable ultralytics checkpoints rebuilt from the committed ONNX files (extra `.[train]`).

The training runs' `.pt` files live outside the repository (`JANTAKU_TRAIN_ROOT`) and go with the machine; the
ONNX files in `models/` are what lasts. Their weights are the same, but the exporter folded every batch norm into
the convolution before it, and a folded network cannot be fine-tuned as it is: in training a batch norm divides by
the statistics of the batch, so identity batch norms would rescale every layer and wipe out what was learnt.

So each batch norm is unfolded to match the statistics its convolution's output has on rendered scenes: with the
per-channel mean m and variance v of that output, running stats (m, v), weight sqrt(v + eps) and bias m + b (b the
folded bias) give back exactly the exported function in evaluation, and in training, on batches like those
scenes, nearly the same. `rebuild` checks the first against onnxruntime before it writes anything.

    python -m vision.from_onnx [--models models] [--out DIR]   # DIR/tile_detector.pt, tile_classifier*.pt
"""

from __future__ import annotations

import argparse
import ast
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from vision.classes import is_horizontal
from vision.crops import upright_crop
from vision.recognizer import _letterbox, classifier_files, model_input
from vision.train import offline

CALIBRATION_SEED = 77_000_000  # rendered scenes no training round or benchmark uses
CALIBRATION_MIX = 7
TOLERANCE = 5e-4  # largest difference to onnxruntime's output, relative to 1 + |output| (box corners are pixels)


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """The initializers by their torch names, and the exporter's metadata (names, imgsz, task)."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(path))
    return ({i.name: numpy_helper.to_array(i) for i in m.graph.initializer},
            {p.key: p.value for p in m.metadata_props})


def calibration_inputs(task: str, imgsz: int, scenes: int, art: str | None = None) -> np.ndarray:
    """Inputs as the reader feeds each model (RGB, 0..1, NCHW): letterboxed scenes, or 24 tile crops per scene."""
    from vision.synth import make_scene

    out = []
    for k in range(scenes):
        scene = make_scene(CALIBRATION_SEED + k, art=art, mix=CALIBRATION_MIX)
        if task == "detect":
            out.append(_letterbox(scene.image, imgsz)[0])
            continue
        labels = list(scene.labels)
        random.Random(k).shuffle(labels)
        out += [upright_crop(scene.image, lb.box, is_horizontal(lb.det), imgsz) for lb in labels[:24]]
    return model_input(np.stack(out))


def _model(task: str, names: dict[int, str]):
    from ultralytics.nn.tasks import ClassificationModel, DetectionModel

    build = DetectionModel if task == "detect" else ClassificationModel
    model = build("yolov8n.yaml" if task == "detect" else "yolov8n-cls.yaml", nc=len(names), verbose=False)
    model.names = names
    return model


def rebuild(path: Path, calibration: np.ndarray | None = None, scenes: int = 24, art: str | None = None):
    """The ultralytics model of ONNX file `path`, batch norms unfolded (module docstring), checked against it."""
    import torch

    weights, meta = onnx_weights(path)
    task, imgsz = meta["task"], ast.literal_eval(meta["imgsz"])[0]
    model = _model(task, ast.literal_eval(meta["names"]))
    modules = dict(model.named_modules())
    state = model.state_dict()
    folded: dict[str, torch.Tensor] = {}  # Conv module name -> the bias folded into its convolution
    loaded, unfolded = set(), set()
    for name, value in weights.items():
        t = torch.from_numpy(value.copy())
        owner = name.removesuffix(".conv.weight").removesuffix(".conv.bias")
        if owner != name and hasattr(modules.get(owner), "bn"):
            if name.endswith("weight"):
                state[name].copy_(t)
                loaded.add(name)
                unfolded.add(owner)
            else:
                folded[owner] = t
            continue
        if name not in state or state[name].shape != t.shape:
            raise SystemExit(f"{path}: {name} {tuple(t.shape)} has no place in the {task} model")
        state[name].copy_(t)
        loaded.add(name)
    bn_owned = {f"{owner}.bn.{p}" for owner in folded
                for p in ("weight", "bias", "running_mean", "running_var", "num_batches_tracked")}
    missing = [k for k in state if k not in loaded and k not in bn_owned]
    if missing or set(folded) != unfolded:
        raise SystemExit(f"{path}: weights the ONNX file does not hold: {missing[:5]}")

    # evaluation-mode identity batch norms plus the folded bias: the exported function, to measure each conv's output
    stats: dict[str, list[torch.Tensor]] = {}
    hooks = []
    for owner, b in folded.items():
        bn = modules[owner].bn
        bn.running_mean.zero_()
        bn.running_var.fill_(1 - bn.eps)
        bn.weight.data.fill_(1.0)
        bn.bias.data.copy_(b)
        hooks.append(modules[owner].conv.register_forward_hook(
            lambda _m, _i, out, owner=owner: stats.setdefault(owner, []).append(
                torch.stack([out.mean((0, 2, 3)), (out * out).mean((0, 2, 3))]))))
    x = torch.from_numpy(calibration if calibration is not None else calibration_inputs(task, imgsz, scenes, art))
    model.eval()
    with torch.no_grad():
        for batch in x.split(16):
            model(batch)
    for h in hooks:
        h.remove()
    for owner, b in folded.items():
        mean, square = torch.stack(stats[owner]).mean(0)
        var = (square - mean * mean).clamp(min=1e-6)
        bn = modules[owner].bn
        bn.running_mean.copy_(mean)
        bn.running_var.copy_(var)
        bn.weight.data.copy_((var + bn.eps).sqrt())
        bn.bias.data.copy_(mean + b)
    _check(model, path, x[:8])
    return model, task, imgsz


def _check(model, path: Path, x) -> None:
    import onnxruntime as ort
    import torch

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    with torch.no_grad():
        got = model(x)
    got = (got[0] if isinstance(got, (tuple, list)) else got).numpy()
    want = np.concatenate([session.run(None, {name: x[i : i + 1].numpy()})[0] for i in range(len(x))])
    worst = float((np.abs(got - want) / (1 + np.abs(want))).max())
    if worst > TOLERANCE:
        raise SystemExit(f"{path}: the rebuilt model differs from the ONNX file by {worst:.2g} (relative)")
    print(f"{path}: the rebuilt model matches the ONNX file within {worst:.1g} (relative)")


def save(model, task: str, imgsz: int, source: Path, out: Path) -> None:
    """A checkpoint `YOLO(out)` loads and `vision.train --init` fine-tunes (ultralytics' own keys)."""
    import torch
    from ultralytics import __version__

    model.train()  # as ultralytics saves a model it trains; the batch norms keep their running stats
    torch.save({"model": model.half(), "train_args": {"task": task, "imgsz": imgsz, "model": str(source)},
                "date": datetime.now(UTC).isoformat(), "version": __version__}, out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", type=Path, default=Path("models"), help="a folder with recognizer.json")
    p.add_argument("--out", type=Path, default=Path("init"))
    p.add_argument("--scenes", type=int, default=24, help="rendered scenes to measure the batch norms on")
    p.add_argument("--art", default=None, help="the FluffyStuff Export folder (default: ../shared/...)")
    a = p.parse_args(argv)
    offline(2)
    if not (a.models / "recognizer.json").exists():
        raise SystemExit(f"no recognizer.json in {a.models}: give the folder of the ONNX files (--models)")
    meta = json.loads((a.models / "recognizer.json").read_text())
    a.out.mkdir(parents=True, exist_ok=True)
    for file in [meta["detector"]["file"], *classifier_files(meta)]:
        model, task, imgsz = rebuild(a.models / file, scenes=a.scenes, art=a.art)
        out = a.out / Path(file).with_suffix(".pt").name
        save(model, task, imgsz, a.models / file, out)
        print(f"{out}: {task}, {imgsz} px, matches {file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
