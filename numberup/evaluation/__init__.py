"""Estimates of unfinished lines and grids: exact expectations where the rule allows, random and
stratified completions, and the exact endgame. Above the game layer, below the learned one."""
