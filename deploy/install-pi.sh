#!/usr/bin/env bash
# Install jantaku as a service on Raspberry Pi OS (Bookworm or later, Lite or Desktop), from a clone:
#   sudo bash deploy/install-pi.sh [--hostname NAME] [--port 8080] [--tile-art DIR]
# Idempotent: run it again after `git pull` to update. What it does:
#   1. apt: python3-venv, python3-picamera2 (libcamera bindings are not on PyPI), python3-lgpio (Pi 5 GPIO),
#      python3-opencv's runtime libraries, avahi-daemon (mDNS: http://jantaku.local:8080/), a CJK font
#      (fonts-ipafont-gothic: the pages draw tile faces with it when no tile art is installed)
#   2. a system user `jantaku` in the gpio and video groups, /var/lib/jantaku for the game log and photos
#   3. a venv in /opt/jantaku/venv WITH system site packages (so picamera2 and lgpio from apt are seen),
#      and this package installed into it
#   4. /etc/jantaku/jantaku.toml from deploy/jantaku.example.toml (kept if it exists), the systemd unit
#      (Restart=always), the avahi service file, and with --hostname the hostname (without it, left as it is)
#   5. the tile recognizer (models/: the ONNX files and recognizer.json, which the package does not carry)
#      copied to /usr/share/jantaku/models; the unit points JANTAKU_MODELS there
#   6. with --tile-art DIR (a FluffyStuff riichi-mahjong-tiles checkout, or its Export/Regular folder of PNGs):
#      the tile pictures copied to /usr/share/jantaku/tiles for the pages (never into the clone)
#   7. waits until the service says it is serving; if it does not within two minutes, or the unit stops for good
#      before (exit 78: a bad config; 73: a data folder it cannot use), prints its log and exits 1
set -euo pipefail
hostname_new=""  # none given: the Pi keeps its name (a re-run to update must not rename it)
port=""
tile_art=""
usage="usage: sudo bash deploy/install-pi.sh [--hostname NAME] [--port N] [--tile-art DIR]"

# a hostname is one RFC 1123 label: ASCII letters, digits and hyphens, 1-63 of them, no hyphen first or last
# (a bracket list, not a range such as a-z, whose letters depend on the locale)
valid_hostname() {
    [ -n "$1" ] && [ "${#1}" -le 63 ] && [[ "$1" != -* && "$1" != *- ]] &&
        [[ "$1" != *[!abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-]* ]]
}

# onnxruntime and opencv have no 32-bit ARM wheels. The userland decides, not `uname -m`: a 32-bit Raspberry
# Pi OS on a Pi 4 or 5 runs a 64-bit kernel (aarch64) under its armhf programs
check_64bit() {
    local arch
    arch="$(dpkg --print-architecture)"
    if [ "$arch" != arm64 ]; then
        echo "jantaku needs the 64-bit Raspberry Pi OS (arm64); this one is $arch" >&2
        return 1
    fi
}

# the service said it is serving since the restart. grep reads the whole log: `grep -q` would stop at the first
# match, journalctl would die of SIGPIPE writing the rest, and under pipefail a server that started would be missed
serving() {
    journalctl -u jantaku --since "$started" --no-pager -q | grep "serving on port" >/dev/null
}

# up to two minutes for the recognizer to load; at once when the unit gave up: it exited with a status it is not
# restarted on (78 a bad config, 73 a data folder it cannot use) or hit systemd's start limit
wait_until_serving() {
    for _ in $(seq 120); do
        serving && return 0
        [ "$(systemctl show -p ActiveState --value jantaku)" != failed ] || break
        sleep 1
    done
    serving
}

while [ $# -gt 0 ]; do
    case "$1" in
        --hostname|--port|--tile-art)  # each needs a value: the usage, not "$2: unbound variable"
            if [ $# -lt 2 ] || [ -z "$2" ]; then echo "$usage" >&2; exit 2; fi ;;&
        --hostname) hostname_new="$2"; valid_hostname "$2" || {
                echo "--hostname $2: a hostname is letters, digits and hyphens (1 to 63, no hyphen first or" \
                     "last), such as jantaku or club-table-2" >&2
                echo "$usage" >&2
                exit 2
            }
            shift 2 ;;
        --port) port="$2"; shift 2 ;;
        --tile-art) tile_art="$(realpath -m "$2")"; shift 2 ;;  # before the cd below: relative to where it was typed
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/.."
src="$(pwd)"
if [ -n "$port" ] && ! { [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ]; }; then
    echo "--port $port: a port is a number from 1 to 65535" >&2
    exit 2
fi
if [ -n "$tile_art" ]; then
    [ -f "$tile_art/Export/Regular/Front.png" ] && tile_art="$tile_art/Export/Regular"
    if [ ! -f "$tile_art/Front.png" ] || [ ! -f "$tile_art/Man1.png" ]; then
        echo "--tile-art $tile_art: no FluffyStuff PNGs there (Front.png, Man1.png ... or Export/Regular/)" >&2
        exit 2
    fi
fi
if [ "$(id -u)" -ne 0 ]; then echo "run as root: sudo bash deploy/install-pi.sh" >&2; exit 2; fi
check_64bit || exit 2

echo "== apt packages"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    python3 python3-venv python3-pip python3-picamera2 python3-lgpio python3-gpiozero \
    libgl1 libglib2.0-0 avahi-daemon fonts-ipafont-gothic

echo "== user and folders"
id jantaku >/dev/null 2>&1 || useradd --system --home /var/lib/jantaku --shell /usr/sbin/nologin jantaku
for group in gpio video; do
    getent group "$group" >/dev/null && usermod -aG "$group" jantaku
done
install -d -o jantaku -g jantaku -m 750 /var/lib/jantaku
install -d -m 755 /etc/jantaku /opt/jantaku

echo "== venv and package"
[ -x /opt/jantaku/venv/bin/python ] || python3 -m venv --system-site-packages /opt/jantaku/venv
/opt/jantaku/venv/bin/pip install -q --disable-pip-version-check --upgrade pip
# numpy below 2: the venv sees apt's picamera2, whose simplejpeg is built against numpy 1 and fails to import
# under numpy 2 (picamera2 issues 1088, 1211); a numpy 2 from PyPI in the venv would hide apt's numpy 1.24
# from a copy: pip builds in the folder it installs, and a root-owned build/ and *.egg-info left in the clone would
# stop `deploy/dev.sh` for its owner and carry deleted files into the next upgrade
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
tar -C "$src" --exclude=./.git --exclude='./.venv*' --exclude=./data --exclude=./build --exclude='./*.egg-info' \
    -cf - . | tar -C "$stage" -xf -
/opt/jantaku/venv/bin/pip install -q --disable-pip-version-check "$stage" "numpy<2"

echo "== tile recognizer model"
if [ -f "$src/models/recognizer.json" ]; then
    install -d -m 755 /usr/share/jantaku/models
    install -m 644 "$src"/models/recognizer.json "$src"/models/*.onnx "$src"/models/MODEL_CARD.md \
        /usr/share/jantaku/models/
else
    echo "   no models/recognizer.json in this clone: scans will ask for the tiles to be entered by hand" >&2
fi

if [ -n "$tile_art" ]; then
    echo "== tile art"
    install -d -m 755 /usr/share/jantaku/tiles
    install -m 644 "$tile_art"/*.png /usr/share/jantaku/tiles/
    [ -f "$tile_art/../../LICENSE.md" ] && install -m 644 "$tile_art/../../LICENSE.md" /usr/share/jantaku/tiles/
fi

echo "== config"
if [ ! -f /etc/jantaku/jantaku.toml ]; then
    install -m 640 -g jantaku deploy/jantaku.example.toml /etc/jantaku/jantaku.toml
    pin="$(shuf -i 1000-9999 -n 1)"
    sed -i "s/^pin = \"2468\".*/pin = \"$pin\"            # the scorekeeper PIN/" /etc/jantaku/jantaku.toml
    echo "   scorekeeper PIN: $pin (change it in /etc/jantaku/jantaku.toml)"
fi
if [ -n "$port" ]; then  # the top-level `port` set, written however it is, or added before the first table
    python3 - "$port" /etc/jantaku/jantaku.toml <<'PY'
import re, sys, tomllib
port, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
line = f"port = {int(port)}"
new, found = re.subn(r"(?m)^port\s*=.*$", line, text, count=1)
if not found:
    table = re.search(r"(?m)^\[", text)
    new = f"{text[:table.start()]}{line}\n\n{text[table.start():]}" if table else f"{text.rstrip()}\n{line}\n"
tomllib.loads(new)  # still a config the server reads
open(path, "w", encoding="utf-8").write(new)
PY
fi
port_now="$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb")).get("port", 8080))' \
    /etc/jantaku/jantaku.toml)"

echo "== systemd and mDNS"
install -m 644 deploy/jantaku.service /etc/systemd/system/jantaku.service
sed "s/<port>8080<\/port>/<port>${port_now}<\/port>/" deploy/jantaku.avahi.service > /etc/avahi/services/jantaku.service
renamed=""
if [ -n "$hostname_new" ] && [ "$(hostname)" != "$hostname_new" ]; then
    hostnamectl set-hostname "$hostname_new"
    sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$hostname_new/" /etc/hosts
    renamed=1
fi
systemctl daemon-reload
systemctl enable --now avahi-daemon
[ -z "$renamed" ] || systemctl restart avahi-daemon  # it reads the hostname at start only
systemctl enable jantaku
started="$(date '+%Y-%m-%d %H:%M:%S')"
systemctl restart jantaku
echo "== waiting for jantaku to start (loading the recognizer takes a while on a Pi)"
if ! wait_until_serving; then
    echo "jantaku did not start; its log:" >&2
    journalctl -u jantaku --since "$started" --no-pager -n 30 >&2 || true
    exit 1
fi
echo "== done: open http://$(hostname).local:${port_now}/ (scorekeeper: /keeper)"
