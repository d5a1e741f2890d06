"""Checkpoints rebuilt from the committed ONNX files must fine-tune from where the models are, not from noise.

Needs the training extra (torch, ultralytics, onnx), so CI, which has no torch, skips it; run it in the training
venv: `.venv-train/bin/python -m pytest tests/test_from_onnx.py`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ultralytics")
pytest.importorskip("onnx")
torch = pytest.importorskip("torch")

from vision import from_onnx  # noqa: E402

MODELS = Path(__file__).resolve().parent.parent / "models"


@pytest.fixture(scope="module")
def classifier(tmp_path_factory):
    from vision.train import offline

    offline(2)
    x = from_onnx.calibration_inputs("classify", 96, scenes=3)
    model, task, imgsz = from_onnx.rebuild(MODELS / "tile_classifier_2.onnx", calibration=x)  # checks it
    out = tmp_path_factory.mktemp("init") / "cls.pt"
    from_onnx.save(model, task, imgsz, MODELS / "tile_classifier_2.onnx", out)
    return out, torch.from_numpy(x)


def _forward(model, x):
    with torch.no_grad():
        y = model(x)
    return y[0] if isinstance(y, tuple) else y  # evaluation gives (probabilities, logits)


def _drift(model, x) -> float:
    """Cross-entropy of a training-mode forward (batch statistics) against the evaluation-mode classes."""
    want = _forward(model.eval(), x).argmax(1)
    return float(torch.nn.functional.cross_entropy(_forward(model.train(), x), want))


def test_a_rebuilt_classifier_loads_as_ultralytics_checkpoints_do_and_reads_as_the_onnx_file(classifier):
    import onnxruntime as ort
    from ultralytics import YOLO

    path, x = classifier
    yolo = YOLO(str(path))
    assert yolo.task == "classify" and len(yolo.names) == 59
    session = ort.InferenceSession(str(MODELS / "tile_classifier_2.onnx"), providers=["CPUExecutionProvider"])
    want = session.run(None, {session.get_inputs()[0].name: x[:16].numpy()})[0]
    got = _forward(yolo.model.float().eval(), x[:16]).numpy()
    assert np.abs(got - want).max() < 0.01  # stored in half precision, as ultralytics stores checkpoints
    assert (got.argmax(1) == want.argmax(1)).all()


def test_unfolded_batch_norms_keep_the_function_in_training_mode_where_identity_ones_lose_it(classifier):
    path, x = classifier
    model = torch.load(path, weights_only=False)["model"].float()
    unfolded = _drift(model, x)
    assert unfolded < 0.1  # measured 0.03
    for bn in (m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)):  # as a plain weight copy would
        bn.bias.data -= bn.running_mean
        bn.weight.data.fill_(1.0)
        bn.running_mean.zero_()
        bn.running_var.fill_(1 - bn.eps)
    assert _drift(model, x) > 3 * unfolded  # measured 0.33: one crop in ten changes class
