#!/usr/bin/env bash
# Build .gpu/, everything a bare GPU box needs to train the recognizer offline (see models/MODEL_CARD.md):
# the FluffyStuff art (by copy into this ignored folder, never into git), CJK and mahjong-glyph fonts cut down to the
# few characters tiles need (fontTools subset: 100 KB instead of 150 MB), DejaVu for ultralytics, the ultralytics
# wheels, and the checkpoints to start from. Run from the repo root on this machine, then carry .gpu to the box.
# Without INIT_DET / INIT_CLS the checkpoints are rebuilt from the committed ONNX files (vision.from_onnx; the
# training venv .venv-train, or TRAIN_PY): the detector and the ensemble's last classifier.
set -euo pipefail
cd "$(dirname "$0")/.."
ART=${JANTAKU_TILE_ART:-../shared/tiles/fluffystuff/Export}
INIT_DET=${INIT_DET:-} INIT_CLS=${INIT_CLS:-}
mkdir -p .git/info && grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
rm -rf .gpu && mkdir -p .gpu/fonts .gpu/sym .gpu/dejavu .gpu/whl .gpu/init
cp -r "$ART" .gpu/art
python3 -m venv /tmp/jantaku-fonttools && /tmp/jantaku-fonttools/bin/pip install -q fonttools
sub() { /tmp/jantaku-fonttools/bin/python -m fontTools.subset "$1" --font-number=0 --output-file="$2" "${@:3}"; }
pack_fonts() {  # FONTS (a fonts root such as /usr/share/fonts) -> .gpu/fonts, .gpu/sym; names what it lacks
  local CJK="一二三四五六七八九萬万伍東南西北發発中白0123456789" f missing=()
  for f in opentype/noto/NotoSerifCJK-Bold.ttc opentype/noto/NotoSerifCJK-Regular.ttc \
           opentype/noto/NotoSansCJK-Bold.ttc opentype/noto/NotoSansCJK-Regular.ttc \
           opentype/ipafont-mincho/ipam.ttf opentype/ipafont-gothic/ipag.ttf truetype/arphic/ukai.ttc \
           truetype/arphic/uming.ttc; do
    if [ -f "$1/$f" ]; then sub "$1/$f" ".gpu/fonts/$(basename "${f%.*}").ttf" --text="$CJK"; else missing+=("$f"); fi
  done
  for f in truetype/ancient-scripts/Symbola_hint.ttf truetype/noto/NotoSansSymbols2-Regular.ttf; do
    if [ -f "$1/$f" ]; then sub "$1/$f" ".gpu/sym/$(basename "$f")" --unicodes=U+1F000-1F02F; else missing+=("$f"); fi
  done
  # the box then renders fewer tile faces than rounds 2-8 saw (models/MODEL_CARD.md, Data): say so, go on
  [ ${#missing[@]} -eq 0 ] || echo "gpu-pack: not packed, not under $1: ${missing[*]}" \
    "(Debian: apt-get install fonts-noto-cjk fonts-symbola fonts-noto-core)" >&2
}
pack_fonts /usr/share/fonts
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf .gpu/dejavu/
# ultralytics is pure Python; torch, torchvision, opencv, numpy and pillow are on the GPU image already
pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 -d .gpu/whl ultralytics==8.4.190 ultralytics-thop==2.2.3
if [ -z "$INIT_DET" ] || [ -z "$INIT_CLS" ]; then
  py() { JANTAKU_TRAIN_ROOT=${JANTAKU_TRAIN_ROOT:-/tmp/jantaku-pack} PYTHONPATH=$PWD \
         ${TRAIN_PY:-.venv-train/bin/python} "$@"; }
  py -m vision.from_onnx --models models --out /tmp/jantaku-init --art "$ART"
  last=$(py -c "import json; from vision.recognizer import classifier_files
print(classifier_files(json.load(open('models/recognizer.json')))[-1])")
  INIT_DET=${INIT_DET:-/tmp/jantaku-init/tile_detector.pt} INIT_CLS=${INIT_CLS:-/tmp/jantaku-init/${last%.onnx}.pt}
fi
cp "$INIT_DET" .gpu/init/det.pt
cp "$INIT_CLS" .gpu/init/cls.pt
du -sh .gpu
