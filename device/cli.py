"""The `jantaku` command: each package registers its own subcommands, imported lazily when run."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from table.errors import InputError

# Packages that add commands. Each has a `cli` module with `register(commands, bench)`:
# `commands` is the top-level subparsers object, `bench` the subparsers of `jantaku bench`.
COMMAND_MODULES = ("table.cli", "vision.cli", "device.commands")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jantaku", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench_parser = commands.add_parser("bench", help="measure throughput and latency")
    bench = bench_parser.add_subparsers(dest="bench", required=True, metavar="TARGET")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(commands, bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand. Subcommands set `func(args) -> int`; InputError means exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"jantaku: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
