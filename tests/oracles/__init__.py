"""What the tests check numberup against, and the checks they share; no tests here.

The independent oracles, written from the rules (the project's RULES.md) and never importing
``numberup``:

- :mod:`oracles.reference`: a naive plain-Python scorer of lines, grids and games (and the
  text form of cards and grids);
- :mod:`oracles.expectiminimax`: an exact expectiminimax over the rules, by full enumeration
  (tiny endgames), and random positions reached by the rules;
- :mod:`oracles.replay`: re-plays a logged game (``numberup simulate --log``) by the rules and
  checks its score with the reference scorer.

Plain Python beside the kernels, reading numberup's arrays and constants:

- :mod:`oracles.learned_reference`: the learned evaluation's features and values;
- :mod:`oracles.line_completions`: every completion of a line, scored by the reference, and
  the positions the line estimates are checked on.

Checks the tests share:

- :mod:`oracles.cli_checks`: run a command in-process or as the console script, and judge a
  one-line error;
- :mod:`oracles.tables`: made-up tables the report tests draw;
- :mod:`oracles.advise_checks`: advise's rows read as the reference's actions, and a position
  where the mean and P(gold) choose apart.

``pythonpath = ["tests"]`` (pyproject.toml) makes this package importable as ``oracles``.
"""
