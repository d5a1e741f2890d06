"""The Raspberry Pi deployment files: a service that restarts, an mDNS record, an install script that parses."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")


def run_install_functions(body: str, *names: str) -> subprocess.CompletedProcess:
    """`body` run by bash (as the script runs: `set -euo pipefail`) after the named functions of install-pi.sh;
    `body` defines fakes of the commands they call first. The script itself is never run past its options here:
    the tests may run as root."""
    text = (DEPLOY / "install-pi.sh").read_text()
    functions = []
    for name in names:
        found = re.search(rf"(?ms)^{name}\(\) {{\n.*?^}}\n", text)
        assert found, f"install-pi.sh has no function {name}"
        functions.append(found.group(0))
    return subprocess.run(["bash", "-c", "set -euo pipefail\n" + "".join(functions) + body],
                          capture_output=True, text=True)


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


@needs_bash
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


@needs_bash
@pytest.mark.parametrize("args", [["--port"], ["--hostname"], ["--tile-art"], ["--port", "80", "--hostname"],
                                  ["--port", ""]])
def test_install_script_option_without_a_value_gives_the_usage(args):
    bad = subprocess.run(["bash", str(DEPLOY / "install-pi.sh"), *args], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("usage: sudo bash deploy/install-pi.sh"), bad.stderr
    assert "unbound variable" not in bad.stderr


@needs_bash
@pytest.mark.parametrize("name", ["Club Table", "a/b", "-table", "table-", "a" * 64, "café", "pi.local", "a&b"])
def test_install_script_refuses_a_hostname_that_is_no_rfc_1123_label_before_installing(name):
    """"Club Table" became ClubTable for hostnamectl but "Club Table" in /etc/hosts; "a/b" broke the script's sed
    after the rename: both stop now, with exit 2 and the usage, before the root check and apt."""
    script = [str(DEPLOY / "install-pi.sh"), "--hostname", name, "--no-such-option"]  # a check gone: usage, no install
    bad = subprocess.run(["bash", *script], capture_output=True, text=True)
    assert bad.returncode == 2, bad.stderr
    assert f"--hostname {name}: a hostname is letters, digits and hyphens" in bad.stderr and "usage" in bad.stderr


@needs_bash
def test_install_script_hostname_check_takes_rfc_1123_labels():
    names = ["jantaku", "club-table-2", "A1", "7", "a" * 63]
    ran = run_install_functions("".join(f"valid_hostname '{n}'\n" for n in names) + "echo ok\n", "valid_hostname")
    assert ran.stdout == "ok\n", ran.stderr


def test_install_script_keeps_the_hostname_unless_told():
    """Re-running the script to update (as the README says) renamed a Pi called otherwise back to jantaku."""
    text = (DEPLOY / "install-pi.sh").read_text()
    assert 'hostname_new=""' in text
    assert 'if [ -n "$hostname_new" ] && [ "$(hostname)" != "$hostname_new" ]; then' in text
    assert 'open http://$(hostname).local:' in text  # the name it has, given or kept


@needs_bash
@pytest.mark.parametrize(("arch", "ok"), [("arm64", True), ("armhf", False), ("amd64", False)])
def test_install_script_goes_by_the_userland_not_the_kernel(arch, ok):
    """A 32-bit Raspberry Pi OS on a Pi 4 or 5 runs a 64-bit kernel: `uname -m` says aarch64, dpkg says armhf."""
    ran = run_install_functions(f"uname() {{ echo aarch64; }}\ndpkg() {{ echo {arch}; }}\n"
                                "if check_64bit; then echo yes; else echo no; fi\n", "check_64bit")
    assert ran.stdout == ("yes\n" if ok else "no\n")
    if not ok:
        assert f"needs the 64-bit Raspberry Pi OS (arm64); this one is {arch}" in ran.stderr


WAIT = ("started='2025-01-01 00:00:00'\nsleeps=0\nsleep() { sleeps=$((sleeps + 1)); }\n"
        "if wait_until_serving; then echo \"serving after $sleeps s\"; else echo \"not after $sleeps s\"; fi\n")


@needs_bash
@pytest.mark.parametrize(("fakes", "said"), [
    # `grep -q` left journalctl writing into a closed pipe: its SIGPIPE failed the pipeline under pipefail, and a
    # server that was serving (with more log after the line, as at DEBUG) was reported as not started.
    pytest.param("journalctl() { echo 'jantaku: serving on port 8080'; seq 300000; }\nsystemctl() { echo active; }\n",
                 "serving after 0 s\n", id="serving-with-more-log"),
    # A bad config (exit 78) or an unusable data folder (exit 73) is not restarted: the unit is failed at once, and
    # the script says so then, not after two minutes.
    pytest.param("journalctl() { echo 'jantaku: config: pin must be 4 to 8 digits'; }\n"
                 "systemctl() { [ \"$*\" = 'show -p ActiveState --value jantaku' ] && echo failed; }\n",
                 "not after 0 s\n", id="unit-gave-up"),
    # Exit 2 (a port still held) is restarted by the unit: the script keeps waiting for it.
    pytest.param("journalctl() { :; }\nsystemctl() { echo activating; }\n", "not after 120 s\n",
                 id="unit-restarting"),
])
def test_install_script_waits_for_the_service_as_long_as_it_may_start(fakes, said):
    ran = run_install_functions(fakes + WAIT, "serving", "wait_until_serving")
    assert ran.stdout == said, ran.stderr
