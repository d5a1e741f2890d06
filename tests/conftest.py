"""Fixtures shared by the test modules (plain helper functions live in the helpers_*.py modules)."""

from __future__ import annotations

import pytest
from helpers_browser import CHROMIUM, CHROMIUM_ARGS

from device.cli import main


@pytest.fixture
def jantaku(tmp_path, capsys, monkeypatch):
    """Run `jantaku ARGS` in-process against a scratch database; returns (exit code, stdout, stderr)."""
    monkeypatch.setenv("JANTAKU_DB", str(tmp_path / "club.db"))

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture(scope="module")
def browser():
    """Headless chromium for one module's page tests (skipped where Playwright is not installed)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()
