"""Errors that carry a message meant for the player, not a traceback."""


class InputError(ValueError):
    """Bad input: the CLI prints the message and exits 2, the web answers 4xx with it."""


class NotFound(InputError):
    """A game asked for by its number that is not in the log: the web answers 404, the CLI exits 2."""
