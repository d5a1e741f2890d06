"""argparse actions the table's commands share."""

from __future__ import annotations

import argparse


def once(parser, namespace, option_string: str, dest: str) -> None:
    """A value given twice is refused: argparse keeps the later one, and a keeper who typed `--han 2 --han 3` or
    `--discards 2m --discards 5z` would see one of them dropped without a word."""
    given = namespace.__dict__.setdefault("_given_options", set())
    if dest in given:
        parser.error(f"{option_string} is given twice: give it once")
    given.add(dest)


class Once(argparse.Action):
    """An option of one value, refused when given twice (see `once`)."""

    def __call__(self, parser, namespace, values, option_string=None):
        once(parser, namespace, option_string, self.dest)
        setattr(namespace, self.dest, values)
