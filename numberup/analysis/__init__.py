"""Answers built on players and runs: hindsight (foresight search and proven bounds), advice and its
estimates, their calibration, campaigns, and the player catalogue read from measured results."""
