"""The table device's memory over many scans: a real `jantaku serve` (replay camera, mock pins) scans the bundled
photos in turn through the JSON API, and its resident memory is read after every tenth. A server that keeps growing
with scans runs a Pi out of memory over a club night; it should level off after the first few.

    .venv/bin/python tests/bench/bench_scan_memory.py [--scans 40] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from device.config import SAMPLE_PHOTOS  # noqa: E402
from device.loadtest import Keeper  # noqa: E402
from vision.bench import machine  # noqa: E402

PIN = "13579"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ready(port: int, server: subprocess.Popen) -> None:
    """Until the server answers (it loads the recognizer first), or it has stopped."""
    for _ in range(240):
        if server.poll() is not None:
            raise RuntimeError(f"jantaku serve stopped with exit {server.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.25)
    raise RuntimeError("jantaku serve did not answer within a minute")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def run(scans: int) -> dict:
    photos = sorted(p.name for p in SAMPLE_PHOTOS.glob("*.jpg"))
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "device.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--data", data,
             "--pins", "mock", "--camera", "replay", "--no-panel", "--pin", PIN],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        try:
            _ready(port, server)
            keeper = Keeper(port, PIN)
            keeper.call("POST", "/api/game", {"players": ["Ann", "Bo", "Cy", "Di"]})
            start = _rss_mb(server.pid)
            after, began = [], time.perf_counter()
            for i in range(scans):
                status, body = keeper.call("POST", "/api/scan", {"winner": 1, "tsumo": True,
                                                                 "photo": photos[i % len(photos)]})
                if status != 200:
                    raise RuntimeError(f"scan {i + 1} answered {status}: {body}")
                keeper.call("DELETE", "/api/proposal", {})
                if (i + 1) % 10 == 0:
                    after.append(round(_rss_mb(server.pid)))
            seconds = time.perf_counter() - began
        finally:
            server.terminate()
            server.wait(30)
    return {"machine": machine(), "scans": scans, "photos": photos, "rss_mb_before_scans": round(start),
            "rss_mb_every_10_scans": after, "seconds_per_scan": round(seconds / scans, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scans", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = run(args.scans)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['machine']}: {args.scans} scans of {len(result['photos'])} photos, "
          f"{result['seconds_per_scan']} s each")
    print(f"resident memory: {result['rss_mb_before_scans']} MB before, then after every 10 scans: "
          + ", ".join(f"{mb} MB" for mb in result["rss_mb_every_10_scans"]))


if __name__ == "__main__":
    main()
