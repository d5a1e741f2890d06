"""A small, bounded version of `jantaku bench serve`: 30 live spectators while the scorekeeper records hands.

The full run (and the figures in the README) is `jantaku bench serve`; this one only checks the room
stays served: every stream opens and sees every change, and page loads stay under 200 ms.
"""

from __future__ import annotations

from device.loadtest import run_load_test


def test_thirty_spectators_while_hands_are_recorded():
    result = run_load_test(spectators=30, hands=8, page_loads=30)
    assert result["streams_open"] == 30, result
    assert result["stream_errors"] == 0, result
    assert result["updates_missed"] == 0, result
    assert result["hands_recorded"] >= 7, result
    assert result["page_ms_p95"] < 200, result
    assert result["update_delay_ms_max"] < 1000, result
    assert result["ok"] is True
