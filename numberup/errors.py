"""The error of bad user input, in a module of its own: the command line's entry point
catches it without importing numpy (``numberup --help`` stays fast)."""


class InputError(ValueError):
    """Bad input from a user: the message says what is wrong and where."""
