"""Errors that carry a message meant for the player, not a traceback."""


class InputError(ValueError):
    """Bad input: the CLI prints the message and exits 2, the web answers 4xx with it."""


class NotFound(InputError):
    """A game asked for by its number that is not in the log: the web answers 404, the CLI exits 2."""


class Conflict(InputError):
    """A write made against a game that has changed since the writer last saw it (two phones recording the same
    hand): the web answers 409 and nothing is recorded."""
