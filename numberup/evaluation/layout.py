"""The array layout the estimates share: how wide a line's estimate is, how deep a search
tree, how many numbers a node's value holds. One home for these limits, below every module that
sizes or indexes such arrays (:mod:`numberup.players.scratch` allocates them)."""

MAX_DEPTH = 2  # decisions in a search tree: the root, and one after the next card
N_VALUE = 5  # a node value: mean, P(bronze), P(silver), P(gold), sum of the line means
# A searcher's estimate of a line: N_STATS columns (mean, variance, P(value >= bronze/silver/
# gold line target)), then on levels scored by the lowest line P(value >= t) for
# t = DIST_LO + 1 .. DIST_HI.
N_STATS = 5
DIST_LO, DIST_HI = -10, 40  # every line value: a minus marker .. four checkmarkers
EVAL_WIDTH = N_STATS + DIST_HI - DIST_LO
