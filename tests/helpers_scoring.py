"""Run `jantaku score` / `jantaku waits` in-process and read what they print."""

from __future__ import annotations

import json

from device.cli import main


def score_json(capsys, *args: str) -> tuple[int, dict]:
    """`jantaku score ARGS --json`: exit code and the JSON object printed."""
    code = main(["score", *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """Any `jantaku` command: exit code, stdout, stderr."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
