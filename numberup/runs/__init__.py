"""Runs of seeded games: the game loop compiled per player, the chunk driver, simulate and compare,
where their games go (tables, logs, run directories), Dask, and reading run tables back."""
