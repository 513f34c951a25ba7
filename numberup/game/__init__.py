"""The rules as arrays: levels as data, cards, the grid's lines, line scoring, the state of a game,
the engine that deals and applies moves, and the running tally. Imports nothing above it."""
