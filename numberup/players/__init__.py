"""Players: the registry of player specs (:mod:`numberup.players.registry`), what a player is
(:mod:`numberup.players.base`), their working arrays (:mod:`numberup.players.scratch`), and one
module per player."""
