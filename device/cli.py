"""The `jantaku` command: scoring, game keeping, photo reading and the table device, from one entry point."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from table.errors import InputError

# Modules that add commands, each with `register(commands, bench)`: `commands` is the top-level subparsers
# object, `bench` the subparsers of `jantaku bench`. Each imports its heavy parts only when its command runs.
COMMAND_MODULES = ("table.score_cli", "table.game_cli", "vision.cli", "device.commands")
MAX_MESSAGE = 2000  # characters of an error message printed


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jantaku", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench_parser = commands.add_parser("bench", help="measure throughput and latency")
    bench = bench_parser.add_subparsers(dest="bench", required=True, metavar="TARGET")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands, bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand. Subcommands set `func(args) -> int`; InputError means exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        message = str(exc)
        if len(message) > MAX_MESSAGE:  # a message quoting a pasted 100,000-tile hand back whole helps no one
            message = f"{message[:MAX_MESSAGE]}... ({len(message) - MAX_MESSAGE:,} characters more)"
        print(f"jantaku: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
