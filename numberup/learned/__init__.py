"""The learned evaluation: line features, the value of an afterstate, the look at the next card,
and the model files (``models/``, one per level, made by ``numberup train``)."""
