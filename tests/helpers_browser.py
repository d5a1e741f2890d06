"""What the page tests need to start Debian's chromium under Playwright (the `browser` fixture is in conftest)."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(),
                                    reason="Debian's chromium is not installed (apt-get install chromium)")
