"""A small progress bar on stderr for long generator and benchmark runs (no dependency)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str, enabled: bool = True) -> Iterator[T]:
    start = time.monotonic()
    last = 0.0
    for i, item in enumerate(items, 1):
        yield item
        now = time.monotonic()
        if enabled and (now - last > 0.5 or i == total):
            last = now
            done = int(30 * i / max(total, 1))
            rate = i / max(now - start, 1e-6)
            eta = (total - i) / rate if rate else 0
            sys.stderr.write(f"\r{label} [{'#' * done}{'.' * (30 - done)}] {i}/{total} {rate:.1f}/s eta {eta:.0f}s")
            sys.stderr.flush()
    if enabled:
        sys.stderr.write("\n")
