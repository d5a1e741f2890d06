#!/usr/bin/env bash
# Train the recognizer on a bare GPU box from the .gpu/ folder that deploy/gpu-pack.sh builds (models/MODEL_CARD.md).
#   bash deploy/gpu-train.sh round2   # 12 000 round-2 scenes, then detector + classifier in the background
#   bash deploy/gpu-train.sh round3   # 3 000 round-3 scenes (standing hands), fine-tune both from round 2
#   bash deploy/gpu-train.sh round8   # 8 000 round-5 scenes (wall clear of the ponds), fine-tune both from .gpu/init
#   bash deploy/gpu-train.sh round10  # fresh mix-11 scenes (round 7's phones at a slant, point sticks and dice,
#                                     # the live wall on half the whole tables, a fifth of the close-ups framed round
#                                     # a few tiles; seed 13), from .gpu/init = round 8's
#   bash deploy/gpu-train.sh wait     # until no training runs (at most WAIT_S seconds), printing progress
#   bash deploy/gpu-train.sh collect  # optimizer-free best.pt + results.csv of every run to $OUT
# Training is time-boxed (ultralytics `time`, hours: DET_HOURS, CLS_HOURS), so a run ends when the lease allows;
# runs detach (setsid) so a box that stays up between short calls keeps training.
# A dry run on a CPU checks a round end to end before GPU minutes go on it (models/MODEL_CARD.md):
#   DEVICE=cpu SCENES=80 DET_HOURS=0.02 CLS_HOURS=0.02 bash deploy/gpu-train.sh round10   (val: SCENES/40)
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in round2|round3|round8|round10|wait|collect) ;;
  *) echo "usage: $0 round2|round3|round8|round10|wait|collect" >&2; exit 2 ;; esac
G=.gpu T=${JANTAKU_TRAIN_ROOT:-/tmp/jt}
export JANTAKU_TRAIN_ROOT=$T JANTAKU_FONT_DIRS=$PWD/$G/fonts PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
python3 -c "import ultralytics" 2>/dev/null || \
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site $G/whl/*.whl >/dev/null
mkdir -p /usr/share/fonts/truetype/ancient-scripts /usr/share/fonts/truetype/noto \
  /usr/share/fonts/truetype/dejavu "$T"
place() { [ ! -e "$1" ] || [ -e "$2/$(basename "$1")" ] || cp "$1" "$2/"; }  # packed, and not on the machine
place $G/sym/Symbola_hint.ttf /usr/share/fonts/truetype/ancient-scripts
place $G/sym/NotoSansSymbols2-Regular.ttf /usr/share/fonts/truetype/noto
place $G/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu

generate() {  # OUT TRAIN VAL SEED MIX, 16 shards in parallel
  for k in $(seq 0 15); do
    python3 -m vision.dataset "$T/$1" --train "$2" --val "$3" --seed "$4" --mix "$5" --crop-size 96 \
      --art $G/art --shard "$k/16" > "$T/gen_$1_$k.log" 2>&1 &
  done
  wait
}

train() {  # NAME_DET NAME_CLS DATA INIT_DET INIT_CLS
  setsid nohup python3 -m vision.train detect --data "$T/$3" --epochs 300 --hours "${DET_HOURS:-0.28}" \
    --imgsz 640 --batch 64 --device "${DEVICE:-0}" --workers 10 --cache --warmup 1 --name "$1" --init "$4" \
    > "$T/$1.log" 2>&1 < /dev/null &
  setsid nohup python3 -m vision.train classify --data "$T/$3" --epochs 300 --hours "${CLS_HOURS:-0.25}" \
    --imgsz 96 --batch 512 --device "${DEVICE:-0}" --workers 5 --warmup 1 --name "$2" --init "$5" \
    > "$T/$2.log" 2>&1 < /dev/null &
}

case "${1:-}" in
  round2) generate data3 12000 400 3 2; train det5 cls5 data3 $G/init/det.pt $G/init/cls.pt ;;
  round3) generate data4 3000 160 4 3; train det6 cls6 data4 "$T/runs/det5/weights/best.pt" \
            "$T/runs/cls5/weights/best.pt" ;;
  round8) generate data11 8000 200 11 5; train det7 cls12 data11 $G/init/det.pt $G/init/cls.pt ;;
  round10) generate data13 "${SCENES:-8000}" $(( ${SCENES:-8000} / 40 )) 13 11; train det8 cls14 data13 $G/init/det.pt $G/init/cls.pt ;;
  wait)
    end=$(( $(date +%s) + ${WAIT_S:-540} ))
    while pgrep -f vision.train > /dev/null && [ "$(date +%s)" -lt "$end" ]; do
      sleep 30
      for r in "$T"/runs/*/results.csv; do echo "$r: $(tail -n 1 "$r" | cut -c1-100)"; done
    done ;;
  collect)
    python3 - <<'PY'
import glob, os, shutil
from ultralytics.utils.torch_utils import strip_optimizer
out = os.environ["OUT"]
for run in glob.glob(os.environ["JANTAKU_TRAIN_ROOT"] + "/runs/*"):
    name = os.path.basename(run)
    if os.path.exists(f"{run}/weights/best.pt"):
        shutil.copy(f"{run}/weights/best.pt", f"{out}/{name}_best.pt")
        strip_optimizer(f"{out}/{name}_best.pt")
    if os.path.exists(f"{run}/results.csv"):
        shutil.copy(f"{run}/results.csv", f"{out}/{name}_results.csv")
PY
    ls -la "$OUT" ;;
esac
