"""Errors that carry a message meant for the player, not a traceback."""


class InputError(ValueError):
    """Bad input: the CLI prints the message and exits 2, the web answers 4xx with it."""
