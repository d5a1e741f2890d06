"""The Raspberry Pi deployment files: a service that restarts, an mDNS record, an install script that parses."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def test_systemd_unit_restarts_and_runs_serve_with_the_config():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(DEPLOY / "jantaku.service")
    service = unit["Service"]
    assert service["Restart"] == "always"
    # a config error is exit 78, a data folder or database that cannot be used exit 73: no restart loop
    assert service["RestartPreventExitStatus"].split() == ["78", "73"]
    assert service["Environment"] == "JANTAKU_MODELS=/usr/share/jantaku/models"  # where install-pi.sh puts them
    assert service["ExecStart"] == "/opt/jantaku/venv/bin/jantaku serve --config /etc/jantaku/jantaku.toml"
    assert service["User"] == "jantaku"
    assert "network-online.target" in unit["Unit"]["After"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_avahi_service_advertises_http_on_the_configured_port():
    root = ET.parse(DEPLOY / "jantaku.avahi.service").getroot()
    assert root.tag == "service-group"
    assert root.find("service/type").text == "_http._tcp"
    assert root.find("service/port").text == "8080"


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_install_script_parses_and_refuses_non_root_or_bad_options():
    script = DEPLOY / "install-pi.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    text = script.read_text()
    for needed in ("python3-picamera2", "python3-lgpio", "--system-site-packages", "avahi-daemon",
                   "systemctl enable jantaku", "/etc/avahi/services/jantaku.service", 'pip install -q '
                   '--disable-pip-version-check "$stage"', "systemctl restart avahi-daemon", "serving on port",
                   '"$src"/models/*.onnx', "/usr/share/jantaku/models/"):
        assert needed in text, needed
    bad = subprocess.run(["bash", str(script), "--colour", "red"], capture_output=True, text=True)
    assert bad.returncode == 2 and "usage" in bad.stderr
    bad = subprocess.run(["bash", str(script), "--port", "80a"], capture_output=True, text=True)
    assert bad.returncode == 2 and "a port is a number from 1 to 65535" in bad.stderr
