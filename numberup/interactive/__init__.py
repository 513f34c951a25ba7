"""A person at the table: the game session (state, legal actions, apply, undo, save), its screen,
and the terminal program of ``play`` and ``assist``."""
