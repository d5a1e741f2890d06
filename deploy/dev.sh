#!/usr/bin/env bash
# One command to set up and run on a fresh clone (Debian/Ubuntu or Raspberry Pi OS):
#   bash deploy/dev.sh serve [jantaku serve options]   -> the table assistant on http://localhost:8080
#   bash deploy/dev.sh test  [pytest options]          -> the whole test suite
# Set-up is idempotent: Debian packages only when missing, a venv in .venv, the package in editable mode.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-}"; shift || true

apt_install() {
    local missing=()
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

venv() {
    if [ ! -x .venv/bin/python ]; then
        python3 -c "import ensurepip" 2>/dev/null || apt_install python3-venv   # Debian leaves venv out of python3
        python3 -m venv .venv
    fi
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".${1:+[$1]}"
}

case "$what" in
    serve)
        venv mcr >/dev/null || venv "" >/dev/null   # MCR scoring needs a compiler; serve runs without it
        exec .venv/bin/jantaku serve "$@"
        ;;
    test)
        apt_install chromium g++ python3-dev fonts-dejavu-core fonts-ipafont-gothic fonts-ipafont-mincho fonts-arphic-ukai fonts-arphic-uming
        venv test,mcr
        .venv/bin/ruff check .
        exec .venv/bin/python -m pytest -q "$@"
        ;;
    *)
        echo "usage: bash deploy/dev.sh serve|test [options]" >&2
        exit 2
        ;;
esac
